// The declarations of libFuzzer's interface for Swift (include/CLibFuzzer.h); libFuzzer itself
// defines them. SwiftPM wants a C target to have a source file.
#include "CLibFuzzer.h"
