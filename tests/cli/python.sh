# tests/cli/python.sh - the Python package (python/banyan, ctypes over this
# build's libbanyan.so): its unittest suites, python/tests/test_*.py, run by
# python/tests/run.py, each test a check. Sourced by tests/run.sh. Needs
# python3; a sanitizer build's library cannot be loaded by a python3 built
# without the sanitizer's runtime, so those builds skip it.
if ! command -v python3 > /dev/null 2>&1; then
    echo "SKIPPED: Python bindings: python3 is not installed (apt-get install python3)"
elif [ ! -e "$B/libbanyan.so.0" ]; then
    echo "SKIPPED: Python bindings: $B has no libbanyan.so.0 (make B=$B all)"
elif case "$B" in *san-*) true ;; *) false ;; esac; then
    echo "SKIPPED: Python bindings in a sanitizer build: python3 would need the sanitizer's" \
        "runtime preloaded (the release pass runs them)"
else
    BANYAN_BUILD="$B" BANYAN_LIBRARY="$B/libbanyan.so.0" PYTHONDONTWRITEBYTECODE=1 \
        python3 python/tests/run.py > "$tmp/python" 2>&1
    py_suite python "" "$tmp/python" $? "python: %s tests of python/tests ($(python3 -V 2>&1))"
fi
