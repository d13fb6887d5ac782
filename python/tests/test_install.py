"""The package as `make install` installs it, imported by a python3 started
outside the source tree, where it must find the installed library and
search with it; then `make uninstall` removes it. Into a staging folder
(DESTDIR, PREFIX=/usr), the library found through LD_LIBRARY_PATH as the
loader's cache would after a real install; and into a prefix of its own
that Python does not search, with nothing set but the PYTHONPATH line that
`make install` prints (the docs' instructions)."""
import glob
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

from support import BUILD, ROOT, banyan

SCRIPT = r"""
import os, sys
import banyan
site, libdir = sys.argv[1:]
assert banyan.__file__.startswith(site + os.sep), banyan.__file__
assert banyan.library_path().startswith(libdir + os.sep), banyan.library_path()
assert banyan.__version__ == banyan.version(), (banyan.__version__, banyan.version())
with banyan.Engine("connect4", memory="16M", seed=1) as e:
    a = e.analyze("4453", playouts=2000)
    assert a.playouts == 2000 and a.best in "abcdefg", a

class Count:
    def __init__(self):
        self.n = 0
    def moves(self):
        return [1, 2]
    def play(self, m):
        self.n += m
    def result(self):
        return None if self.n < 5 else ([1.0, 0.0] if self.n == 5 else [0.0, 1.0])
    def copy(self):
        c = Count()
        c.n = self.n
        return c

with banyan.Engine(Count(), memory="1M") as e:
    assert e.analyze(playouts=300).best in (1, 2)
print("installed package ok:", banyan.__file__, banyan.library_path())
"""


def clean_env():
    env = dict(os.environ)
    for key in ("BANYAN_LIBRARY", "PYTHONPATH", "LD_LIBRARY_PATH", "MAKEFLAGS", "MFLAGS",
                "MAKELEVEL"):
        env.pop(key, None)
    return env


@unittest.skipIf(os.environ.get("BANYAN_TEST_INSTALLED"),
                 "make install of the source tree, not the installed package under test")
@unittest.skipUnless(shutil.which("make"), "make is not installed")
@unittest.skipUnless(os.path.exists(os.path.join(BUILD, "libbanyan.so.0")), "no build")
class InstallTest(unittest.TestCase):
    def make(self, target, prefix, stage=None):
        # -o all: install what is built, without building (the suite runs
        # after the build, and must not rebuild under a running make).
        build = os.path.relpath(BUILD, ROOT)
        # LDCONFIG=true: the loader's cache, which root's install refreshes,
        # is no business of these tests.
        dest = [f"DESTDIR={stage}"] if stage else ["LDCONFIG=true"]
        return subprocess.run(
            ["make", "-o", "all", target, f"B={build}", f"PREFIX={prefix}",
             f"PYTHON={sys.executable}"] + dest,
            cwd=ROOT, env=clean_env(), capture_output=True, text=True)

    def search(self, site, libdir, env, cwd):
        """SCRIPT in a fresh python3 started in cwd with env: the package
        imported from site searches on the library in libdir."""
        env = dict(env, PYTHONDONTWRITEBYTECODE="1")
        run = subprocess.run([sys.executable, "-c", SCRIPT, site, libdir], cwd=cwd, env=env,
                             capture_output=True, text=True)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        self.assertIn("installed package ok", run.stdout)

    def test_installed_package_searches_then_uninstalled(self):
        with tempfile.TemporaryDirectory() as stage:
            done = self.make("install", "/usr", stage)
            self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
            inits = glob.glob(os.path.join(stage, "usr/lib/python3*/*-packages/banyan/__init__.py"))
            self.assertEqual(len(inits), 1, done.stdout)
            site = os.path.dirname(os.path.dirname(inits[0]))
            with open(os.path.join(site, "banyan", "_installed.py")) as f:
                self.assertEqual(f.read().splitlines(),
                                 ['LIBDIR = "/usr/lib"', f'VERSION = "{banyan.__version__}"'])
            env = clean_env()
            env["PYTHONPATH"] = site
            env["LD_LIBRARY_PATH"] = os.path.join(stage, "usr/lib")
            self.search(site, os.path.join(stage, "usr/lib"), env, stage)

            done = self.make("uninstall", "/usr", stage)
            self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
            self.assertFalse(os.path.exists(os.path.join(site, "banyan")))
            self.assertEqual(glob.glob(os.path.join(stage, "usr/lib/libbanyan*")), [])
            gone = subprocess.run([sys.executable, "-S", "-c", "import banyan"], cwd=stage, env=env,
                                  capture_output=True, text=True)
            self.assertNotEqual(gone.returncode, 0)

    def test_own_prefix_with_the_pythonpath_printed(self):
        # make install PREFIX=/some/prefix, no root, no DESTDIR: the package
        # goes in PREFIX/lib/python3.X/site-packages, which Python does not
        # search, so make prints the line to set PYTHONPATH; with that alone
        # (no LD_LIBRARY_PATH, no ldconfig) the package imports from any
        # folder and loads PREFIX/lib/libbanyan.so.0, recorded at install.
        with tempfile.TemporaryDirectory() as tmp:
            prefix = os.path.join(tmp, "prefix")
            done = self.make("install", prefix)
            self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
            exports = [line.strip() for line in done.stdout.splitlines()
                       if line.strip().startswith("export PYTHONPATH=")]
            self.assertEqual(len(exports), 1, done.stdout)
            site = exports[0][len("export PYTHONPATH="):]
            self.assertRegex(site, "^" + prefix + "/lib/python3[.0-9]*/site-packages$")
            self.assertIn(f"does not search {site}", done.stdout)
            self.assertTrue(os.path.isfile(os.path.join(site, "banyan", "__init__.py")))
            elsewhere = os.path.join(tmp, "elsewhere")
            os.mkdir(elsewhere)
            env = clean_env()
            env["PYTHONPATH"] = site
            self.search(site, os.path.join(prefix, "lib"), env, elsewhere)
            # The library installed with the package comes before another
            # libbanyan.so.0 the loader finds (BANYAN_LIBRARY alone overrides).
            self.search(site, os.path.join(prefix, "lib"), dict(env, LD_LIBRARY_PATH=BUILD),
                        elsewhere)

            done = self.make("uninstall", prefix)
            self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
            self.assertFalse(os.path.exists(os.path.join(site, "banyan")))
            self.assertEqual(glob.glob(os.path.join(prefix, "lib/libbanyan*")), [])
            gone = subprocess.run([sys.executable, "-S", "-c", "import banyan"], cwd=elsewhere,
                                  env=env, capture_output=True, text=True)
            self.assertNotEqual(gone.returncode, 0)

    def test_a_prefix_python_searches_needs_no_pythonpath(self):
        # The folder for the interpreter's own prefix is one it searches:
        # no PYTHONPATH line (install_dir.py alone; nothing is installed).
        script = os.path.join(ROOT, "python", "install_dir.py")
        for prefix in (sys.prefix, "/nonexistent/prefix"):
            run = subprocess.run([sys.executable, "-E", script, "--note", prefix],
                                 capture_output=True, text=True, env=clean_env())
            self.assertEqual(run.returncode, 0, run.stderr)
            if prefix == sys.prefix:
                self.assertEqual(run.stdout, "")
            else:
                self.assertIn("export PYTHONPATH=/nonexistent/prefix/lib/python3", run.stdout)


if __name__ == "__main__":
    unittest.main()
