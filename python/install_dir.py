"""python3 -E python/install_dir.py [--note] PREFIX - the folder where `make
install` puts the Python package for PREFIX: the one this python3 searches
under that prefix where there is one, else PREFIX/lib/python3.X/site-packages.

Debian's python3 searches /usr/lib/python3/dist-packages (its own packages,
PREFIX=/usr) and /usr/local/lib/python3.X/dist-packages (local ones,
PREFIX=/usr/local); a Python built with PREFIX searches
PREFIX/lib/python3.X/site-packages, and so does a virtual environment for
its own folder, and Python's user site for ~/.local. Any other prefix needs
PYTHONPATH: with --note, the line to set it is printed when this python3
does not search the folder (nothing is printed when it does). -E keeps
PYTHONPATH out of the question: what counts is what Python searches
without it."""
import os
import site
import sys
import sysconfig


def searched():
    """The folders this python3 searches for packages (its sys.path but
    the script's own folder), resolved."""
    dirs = list(sys.path[1:]) + list(site.getsitepackages())
    if site.ENABLE_USER_SITE:
        dirs.append(site.getusersitepackages())  # On sys.path only once it exists.
    return {os.path.realpath(d) for d in dirs if d}


def candidates(prefix):
    """The package folders of the schemes this python3 has for prefix, the
    distribution's own first; posix_prefix, the standard one, last."""
    schemes = sysconfig.get_scheme_names()
    out = []
    if prefix == "/usr" and "deb_system" in schemes:
        out.append(("deb_system", prefix))
    if prefix.endswith("/local") and "posix_local" in schemes:
        out.append(("posix_local", prefix[: -len("/local")]))  # The scheme adds /local.
    out.append(("posix_prefix", prefix))
    paths = []
    for scheme, base in out:
        where = {"base": base, "platbase": base, "installed_base": base,
                 "installed_platbase": base}
        paths.append(sysconfig.get_path("purelib", scheme, vars=where))
    return paths


def install_dir(prefix):
    prefix = prefix.rstrip("/") or "/"
    paths = candidates(prefix)
    on_path = searched()
    for path in paths:
        if os.path.realpath(path) in on_path:
            return path
    return paths[-1]


def note(prefix):
    """The line to set PYTHONPATH, with why, or None where it is not needed."""
    path = install_dir(prefix)
    if os.path.realpath(path) in searched():
        return None
    return (f"note: {sys.executable} does not search {path}: to import banyan, set (in your "
            f"shell's profile, say)\n  export PYTHONPATH={path}")


if __name__ == "__main__":
    args = sys.argv[1:]
    with_note = args[:1] == ["--note"]
    if with_note:
        args = args[1:]
    if len(args) != 1:
        sys.exit("usage: python3 -E python/install_dir.py [--note] PREFIX")
    if not with_note:
        print(install_dir(args[0]))
    elif note(args[0]):
        print(note(args[0]))
