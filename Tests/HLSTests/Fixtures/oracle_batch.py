#!/usr/bin/env python3
"""Runs the corpus's differential oracle (oracle_m3u8.py, globocom m3u8) over many playlists in
one process and prints {file: summary} as JSON, for OracleDifferentialTests.

    oracle_batch.py CORPUS_DIR FILE...
"""
import json
import sys


def main(argv):
    corpus = argv[1]
    sys.path.insert(0, corpus)
    import m3u8
    import oracle_m3u8

    results = {}
    for name in argv[2:]:
        try:
            with open("%s/%s" % (corpus, name), "rb") as handle:
                text = handle.read().decode("utf-8")
            results[name] = oracle_m3u8.summarize(m3u8.loads(text), None)
        except Exception as error:  # the oracle's verdict is "reject"
            results[name] = {"error": type(error).__name__}
    print(json.dumps(results, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
