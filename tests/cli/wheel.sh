# tests/cli/wheel.sh - the Python package installed with pip, offline
# (python/pyproject.toml, python/banyan_build.py): `pip install ./python` in a
# fresh virtual environment imports outside the source tree and searches on
# the library inside the package; the wheels of `pip wheel`, `python3 -m
# build` and of the sdist alone, unpacked in an empty folder, carry the
# library, the version of include/banyan.h and a RECORD that matches; the
# package's unittest suites (python/tests, each test a check) run against
# the wheel installed in a second environment. Nothing is written in the
# source tree. Sourced by tests/run.sh. Needs Debian's /usr/bin/python3 with
# its venv module; it builds its own library (the release build's flags),
# so sanitizer builds leave it to the release pass.
if [ ! -x /usr/bin/python3 ]; then
    echo "SKIPPED: Python wheel: /usr/bin/python3 is not installed (apt-get install python3)"
elif ! /usr/bin/python3 -c 'import ensurepip, venv' > /dev/null 2>&1; then
    echo "SKIPPED: Python wheel: /usr/bin/python3 has no venv module (apt-get install python3-venv)"
elif case "$B" in *san-*) true ;; *) false ;; esac; then
    echo "SKIPPED: Python wheel in a sanitizer build: the wheel builds its own release library" \
        "(the release pass runs it)"
else
    wh_root=$PWD
    wh_version=$(header_version)
    # Every command runs without the variables that would choose another
    # package or library, or another index, and writes no bytecode here.
    wh() {
        env -u BANYAN_LIBRARY -u BANYAN_TEST_INSTALLED -u PYTHONPATH -u PYTHONHOME \
            -u LD_LIBRARY_PATH PYTHONDONTWRITEBYTECODE=1 PIP_CONFIG_FILE=/dev/null \
            PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1 "$@"
    }
    # wh_in FOLDER COMMAND...: wh COMMAND... run in FOLDER.
    wh_in() { (cd "$1" && shift && wh "$@"); }

    # What a wheel must hold, checked by Python's zipfile: the package's
    # modules and the library, METADATA and WHEEL as the docs say, every
    # file in RECORD with its sha256 and size, the licence.
    cat > "$tmp/wheel_check.py" << 'EOF'
import base64, hashlib, os, re, sys, sysconfig, zipfile
path, version, root = sys.argv[1:]
z = zipfile.ZipFile(path)
names = set(z.namelist())
info = f"banyan-{version}.dist-info"
tag = "py3-none-" + re.sub(r"[-.]", "_", sysconfig.get_platform())
assert os.path.basename(path) == f"banyan-{version}-{tag}.whl", path
modules = {f"banyan/{m}" for m in os.listdir(os.path.join(root, "python/banyan"))
           if m.endswith(".py")} | {"banyan/_installed.py", "banyan/libbanyan.so.0"}
assert modules <= names, modules - names
assert z.read("banyan/libbanyan.so.0")[:4] == b"\x7fELF"
assert z.getinfo("banyan/libbanyan.so.0").external_attr >> 16 & 0o111
assert f'VERSION = "{version}"' in z.read("banyan/_installed.py").decode()
meta = z.read(f"{info}/METADATA").decode().splitlines()
for line in ("Name: banyan", f"Version: {version}", "License: MIT", "Metadata-Version: 2.1"):
    assert line in meta, (line, meta)
assert any(line.startswith("Summary: ") for line in meta), meta
wheel = z.read(f"{info}/WHEEL").decode().splitlines()
assert f"Tag: {tag}" in wheel and "Root-Is-Purelib: false" in wheel, wheel
if os.path.exists(os.path.join(root, "LICENSE")):
    assert z.read(f"{info}/LICENSE") == open(os.path.join(root, "LICENSE"), "rb").read()
record = {}
for line in z.read(f"{info}/RECORD").decode().splitlines():
    name, digest, size = line.rsplit(",", 2)
    record[name] = (digest, size)
assert set(record) == names, set(record) ^ names
for name in names - {f"{info}/RECORD"}:
    data = z.read(name)
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    assert record[name] == ("sha256=" + digest, str(len(data))), name
print("wheel ok:", len(names), "files")
EOF
    # check_wheel WHAT FOLDER: FOLDER holds one wheel, and it is right.
    check_wheel() {
        local whl
        whl=$(ls "$2"/*.whl 2> /dev/null)
        if [ -n "$whl" ] && [ "$(echo "$whl" | wc -l)" -eq 1 ]; then
            check "wheel: $1's wheel holds the library, version $wh_version, a RECORD that matches" \
                wh /usr/bin/python3 "$tmp/wheel_check.py" "$whl" "$wh_version" "$wh_root"
        else
            ls "$2" > "$tmp/out" 2>&1
            bad "wheel: $1 made one wheel"
        fi
    }
    # The installed package, imported outside the source tree: its own
    # library, the header's version, a search.
    cat > "$tmp/wheel_import.py" << 'EOF'
import os, sys
import banyan
env, version = sys.argv[1:]
here = os.path.dirname(banyan.__file__)
assert here.startswith(env + os.sep), banyan.__file__
assert banyan.library_path() == os.path.join(here, "libbanyan.so.0"), banyan.library_path()
assert banyan.__version__ == banyan.version() == version, (banyan.__version__, banyan.version())
with banyan.Engine("connect4", memory="16M", seed=1) as e:
    a = e.analyze("4453", playouts=2000)
    assert a.playouts == 2000 and a.best in "abcdefg", a
print("installed:", banyan.__file__, banyan.library_path(), banyan.__version__)
EOF
    find python -path '*/__pycache__' -prune -o -print | sort > "$tmp/wheel_tree"

    # pip install ./python, and the package imported from elsewhere.
    wh_env=$tmp/wheel-env
    check "wheel: a fresh virtual environment" wh /usr/bin/python3 -m venv "$wh_env"
    check "wheel: pip install --no-index ./python builds and installs the package" \
        wh "$wh_env/bin/pip" install --no-index --no-cache-dir -q ./python
    check "wheel: the installed package, imported outside the source tree, searches on its own library, version $wh_version" \
        wh_in "$tmp" "$wh_env/bin/python" "$tmp/wheel_import.py" "$wh_env" "$wh_version"

    # The wheels: pip wheel, python3 -m build, and the sdist alone.
    check "wheel: pip wheel --no-index ./python" \
        wh "$wh_env/bin/pip" wheel --no-index --no-cache-dir -q -w "$tmp/wheel-pip" ./python
    check_wheel "pip wheel" "$tmp/wheel-pip"
    if wh /usr/bin/python3 -c 'import build' > /dev/null 2>&1; then
        # Isolated (the default): a venv of its own, with nothing to install.
        check "wheel: python3 -m build ./python (the sdist, then the wheel from it)" \
            wh /usr/bin/python3 -m build -o "$tmp/wheel-build" ./python
        check_wheel "python3 -m build" "$tmp/wheel-build"
    else
        echo "SKIPPED: wheel: python3 -m build: /usr/bin/python3 has no build module" \
            "(apt-get install python3-build)"
    fi
    mkdir "$tmp/wheel-sdist" "$tmp/wheel-empty"
    check "wheel: the backend's sdist" wh /usr/bin/python3 -B -c \
        'import sys; sys.path.insert(0, "python"); import banyan_build; banyan_build.build_sdist(sys.argv[1])' \
        "$tmp/wheel-sdist"
    wh_sdist=$tmp/wheel-sdist/banyan-$wh_version.tar.gz
    tar -tzf "$wh_sdist" > "$tmp/out" 2>&1
    has "wheel: the sdist holds the package, its backend and the library's source" \
        "^banyan-$wh_version/libbanyan/games/gomoku/gen_tables.c$"
    if grep -Eq '\.(o|d|so[.0-9]*|pyc)$|/build/' "$tmp/out"; then
        bad "wheel: the sdist holds no build output"
    else ok "wheel: the sdist holds no build output"; fi
    tar -xzf "$wh_sdist" -C "$tmp/wheel-empty"
    check "wheel: the sdist, unpacked in an empty folder, builds a wheel" \
        wh_in "$tmp/wheel-empty" "$wh_env/bin/pip" wheel --no-index --no-cache-dir -q \
        -w "$tmp/wheel-rt" "./banyan-$wh_version"
    check_wheel "the sdist" "$tmp/wheel-rt"
    find python -path '*/__pycache__' -prune -o -print | sort > "$tmp/wheel_tree_after"
    check "wheel: nothing written in python/" diff "$tmp/wheel_tree" "$tmp/wheel_tree_after"

    # The package's suites against the wheel, installed in a second fresh
    # environment: run.py from the source tree with BANYAN_TEST_INSTALLED,
    # which imports the package that Python finds, the environment's.
    wh_env2=$tmp/wheel-env2
    check "wheel: a second fresh virtual environment" wh /usr/bin/python3 -m venv "$wh_env2"
    check "wheel: pip install of pip wheel's wheel there" \
        wh "$wh_env2/bin/pip" install --no-index --no-cache-dir -q "$tmp"/wheel-pip/*.whl
    check "wheel: the suites import the package installed in the environment" \
        wh_in "$tmp" BANYAN_TEST_INSTALLED=1 "$wh_env2/bin/python" -c \
        'import sys; sys.path.insert(0, sys.argv[1]); import support; f = support.banyan.__file__; assert f.startswith(sys.argv[2]), f' \
        "$wh_root/python/tests" "$wh_env2/"
    wh_in "$tmp" BANYAN_TEST_INSTALLED=1 "$wh_env2/bin/python" "$wh_root/python/tests/run.py" \
        > "$tmp/wheel-suite" 2>&1
    py_suite "wheel: python" "wheel: " "$tmp/wheel-suite" $? \
        "wheel: %s tests of python/tests against the installed wheel ($(/usr/bin/python3 -V 2>&1))"
fi
