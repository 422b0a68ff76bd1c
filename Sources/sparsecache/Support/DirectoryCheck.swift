#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum DirectoryCheck {
    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }
}
