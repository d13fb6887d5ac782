"""python3 python/tests/run.py [PATTERN] - runs the Python package's tests
(test_*.py here, or those matching PATTERN) and prints one line per test,
"ok NAME", "FAIL NAME" or "SKIPPED: NAME: why", then the failures' tracebacks
after a line of '='. tests/cli/python.sh counts the lines. Exits 1 when a
test failed. BANYAN_BUILD names the build folder (default build/release)."""
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))


class LineResult(unittest.TestResult):
    def __init__(self):
        super().__init__()
        self.lines = []

    @staticmethod
    def name(test):
        return test.id().replace("test_", "", 1)

    def addSuccess(self, test):
        super().addSuccess(test)
        print("ok", self.name(test), flush=True)

    def addFailure(self, test, err):
        super().addFailure(test, err)
        print("FAIL", self.name(test), flush=True)

    def addError(self, test, err):
        super().addError(test, err)
        print("FAIL", self.name(test), flush=True)

    def addSubTest(self, test, subtest, err):
        super().addSubTest(test, subtest, err)
        if err is not None:
            print("FAIL", self.name(subtest), flush=True)

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        print(f"SKIPPED: Python test {self.name(test)}: {reason}", flush=True)


def main():
    pattern = sys.argv[1] if len(sys.argv) > 1 else "test_*.py"
    sys.path.insert(0, HERE)
    suite = unittest.defaultTestLoader.discover(HERE, pattern=pattern, top_level_dir=HERE)
    result = LineResult()
    suite.run(result)
    for test, trace in result.failures + result.errors:
        print("=" * 70)
        print("FAIL", test.id())
        print(trace)
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
