"""python/install_dir.py PREFIX - prints the folder where `make install` puts
the Python package for PREFIX: the one this python3 searches under that
prefix. Debian's python3 searches /usr/lib/python3/dist-packages (its own
packages, PREFIX=/usr) and /usr/local/lib/python3.X/dist-packages (local
ones, PREFIX=/usr/local); other builds of Python, and other prefixes, use
PREFIX/lib/python3.X/site-packages, which needs PYTHONPATH unless Python
was built with that prefix."""
import sys
import sysconfig


def install_dir(prefix):
    prefix = prefix.rstrip("/") or "/"
    schemes = sysconfig.get_scheme_names()
    if prefix == "/usr" and "deb_system" in schemes:
        scheme, base = "deb_system", prefix
    elif prefix.endswith("/local") and "posix_local" in schemes:
        scheme, base = "posix_local", prefix[: -len("/local")]  # The scheme adds /local.
    else:
        scheme, base = "posix_prefix", prefix
    where = {"base": base, "platbase": base, "installed_base": base, "installed_platbase": base}
    return sysconfig.get_path("purelib", scheme, vars=where)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python3 python/install_dir.py PREFIX")
    print(install_dir(sys.argv[1]))
