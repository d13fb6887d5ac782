"""The Python package's build backend (PEP 517), named by pyproject.toml.

It lives in the tree and needs nothing but Python's standard library, so
that `pip install ./python`, `pip wheel ./python` and `python3 -m build
./python` work offline: pyproject.toml requires nothing to be installed
first.

build_wheel builds libbanyan.so with the project's Makefile, the one recipe
of every build, in a temporary folder (never in the source tree: pip builds
in place), and puts it inside the package as banyan/libbanyan.so.0, which
the package loads before any other (_lib.py). The Python is pure but the
library is not, so the wheel is tagged for this platform only
(py3-none-linux_x86_64). The version is BANYAN_VERSION of
include/banyan.h, written into the wheel's metadata and into
banyan/_installed.py for banyan.__version__.

build_sdist packs the package with what the library's build needs (the
Makefile, include/, src/, games/, the licence) under libbanyan/, so that a
wheel builds from the sdist alone, as `python3 -m build` does. The library's
source is libbanyan/ beside this file in an sdist, else the repository
around python/.

There is no editable install (PEP 660): from the source tree, put python/
on the path after `make` (docs/PYTHON.md).
"""
import base64
import gzip
import hashlib
import io
import os
import re
import shutil
import subprocess
import sysconfig
import tarfile
import tempfile
import zipfile

NAME = "banyan"
SUMMARY = "Monte Carlo Tree Search with the library libbanyan, through ctypes"
SONAME = "libbanyan.so.0"
HERE = os.path.dirname(os.path.abspath(__file__))
# Zip and tar entries carry this time (1980-01-01), not the build's: the
# archives' bytes depend on their contents alone.
EPOCH = (1980, 1, 1, 0, 0, 0)
# What an sdist carries of the library's source: files, and folders whose
# .c, .h and .map files it takes, at every depth.
LIB_FILES = ("Makefile", "LICENSE", "README.md")
LIB_DIRS = ("include", "src", "games")


def _root():
    """The library's source: libbanyan/ in an sdist, the repository else."""
    for root in (os.path.join(HERE, "libbanyan"), os.path.dirname(HERE)):
        if os.path.isfile(os.path.join(root, "include", "banyan.h")):
            return root
    raise RuntimeError(f"banyan: no library source (include/banyan.h) around {HERE}: build "
                       "from the repository's python/ folder or from the sdist")


def _version(root):
    """BANYAN_VERSION of include/banyan.h, which must be a release number
    that Python's packaging takes (PEP 440: 1.2.3)."""
    with open(os.path.join(root, "include", "banyan.h")) as header:
        found = re.search(r'#define BANYAN_VERSION "([^"]*)"', header.read())
    if not found or not re.fullmatch(r"\d+(\.\d+)*", found.group(1)):
        raise RuntimeError("banyan: include/banyan.h has no BANYAN_VERSION such as \"1.2.3\"")
    return found.group(1)


def _metadata(version):
    """The core metadata (METADATA in the wheel, PKG-INFO in the sdist)."""
    return (f"Metadata-Version: 2.1\nName: {NAME}\nVersion: {version}\nSummary: {SUMMARY}\n"
            "License: MIT\nRequires-Python: >=3.8\n"
            "Classifier: License :: OSI Approved :: MIT License\n"
            "Classifier: Programming Language :: C\n"
            "Classifier: Programming Language :: Python :: 3\n")


def _package_files():
    """The package's modules, by name (what `make install` copies too);
    _installed.py is written, never taken from a folder."""
    folder = os.path.join(HERE, NAME)
    return sorted(f for f in os.listdir(folder) if f.endswith(".py") and f != "_installed.py")


def _build_library(root, out):
    """Builds libbanyan.so.VERSION in the folder out with the Makefile: the
    release build of the library alone, without the optional parts of the
    program (the web board, MPI, BLAS), whatever the environment's make
    variables say."""
    if not shutil.which("make"):
        raise RuntimeError("banyan: building libbanyan needs make and a C compiler "
                           "(apt-get install build-essential)")
    target = os.path.join(out, f"libbanyan.so.{_version(root)}")
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    subprocess.run(["make", "-C", root, f"-j{os.cpu_count() or 1}", f"B={out}", "sanitize=",
                    "DEBUG=", "WERROR=", "WEB=no", "MPI=no", "BLAS=none", target], env=env,
                   check=True)
    return target


def _platform_tag():
    return re.sub(r"[-.]", "_", sysconfig.get_platform())


class _Wheel:
    """A wheel being written: each file's hash for RECORD as it goes in."""

    def __init__(self, path, dist_info):
        self.zip = zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED)
        self.dist_info = dist_info
        self.record = []

    def add(self, name, data, mode=0o644):
        info = zipfile.ZipInfo(name, EPOCH)
        info.external_attr = (0o100000 | mode) << 16
        info.compress_type = zipfile.ZIP_DEFLATED
        self.zip.writestr(info, data)
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
        self.record.append(f"{name},sha256={digest.decode()},{len(data)}")

    def close(self):
        record = f"{self.dist_info}/RECORD"
        self.record.append(f"{record},,")
        info = zipfile.ZipInfo(record, EPOCH)
        info.external_attr = 0o100644 << 16
        self.zip.writestr(info, "\n".join(self.record) + "\n", zipfile.ZIP_DEFLATED)
        self.zip.close()


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    """The wheel banyan-VERSION-py3-none-PLATFORM.whl, library inside."""
    root = _root()
    version = _version(root)
    tag = f"py3-none-{_platform_tag()}"
    dist_info = f"{NAME}-{version}.dist-info"
    name = f"{NAME}-{version}-{tag}.whl"
    with tempfile.TemporaryDirectory(prefix="banyan-wheel-") as out:
        library = _build_library(root, out)
        wheel = _Wheel(os.path.join(wheel_directory, name), dist_info)
        try:
            for module in _package_files():
                with open(os.path.join(HERE, NAME, module), "rb") as f:
                    wheel.add(f"{NAME}/{module}", f.read())
            wheel.add(f"{NAME}/_installed.py",
                      f'"""Written by the wheel\'s build."""\nVERSION = "{version}"\n'.encode())
            with open(library, "rb") as f:
                wheel.add(f"{NAME}/{SONAME}", f.read(), 0o755)
            wheel.add(f"{dist_info}/METADATA", _metadata(version).encode())
            wheel.add(f"{dist_info}/WHEEL", (
                "Wheel-Version: 1.0\nGenerator: banyan_build\nRoot-Is-Purelib: false\n"
                f"Tag: {tag}\n").encode())
            if os.path.isfile(os.path.join(root, "LICENSE")):
                with open(os.path.join(root, "LICENSE"), "rb") as f:
                    wheel.add(f"{dist_info}/LICENSE", f.read())
        finally:
            wheel.close()
    return name


def build_sdist(sdist_directory, config_settings=None):
    """The sdist banyan-VERSION.tar.gz: the package, this backend, and the
    library's source under libbanyan/."""
    root = _root()
    version = _version(root)
    top = f"{NAME}-{version}"
    files = [("pyproject.toml", os.path.join(HERE, "pyproject.toml")),
             ("banyan_build.py", os.path.join(HERE, "banyan_build.py"))]
    files += [(f"{NAME}/{m}", os.path.join(HERE, NAME, m)) for m in _package_files()]
    files += [(f"libbanyan/{f}", os.path.join(root, f)) for f in LIB_FILES
              if os.path.isfile(os.path.join(root, f))]
    for folder in LIB_DIRS:
        for here, dirs, names in os.walk(os.path.join(root, folder)):
            dirs.sort()
            for f in sorted(names):
                if f.endswith((".c", ".h", ".map")):
                    path = os.path.join(here, f)
                    files.append((f"libbanyan/{os.path.relpath(path, root)}", path))

    def entry(name, size, mode=0o644):
        info = tarfile.TarInfo(f"{top}/{name}")
        info.size, info.mode, info.mtime = size, mode, 315532800  # EPOCH
        return info

    name = f"{top}.tar.gz"
    with open(os.path.join(sdist_directory, name), "wb") as out, \
            gzip.GzipFile(fileobj=out, mode="wb", mtime=0) as gz, \
            tarfile.open(fileobj=gz, mode="w", format=tarfile.PAX_FORMAT) as tar:
        pkg_info = _metadata(version).encode()
        tar.addfile(entry("PKG-INFO", len(pkg_info)), io.BytesIO(pkg_info))
        for arcname, path in files:
            with open(path, "rb") as f:
                data = f.read()
            tar.addfile(entry(arcname, len(data)), io.BytesIO(data))
    return name
