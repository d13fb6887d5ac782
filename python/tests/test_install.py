"""The package as `make install` installs it: into a staging folder
(DESTDIR, PREFIX=/usr), imported by a python3 started outside the source
tree, where it must find the installed library (through LD_LIBRARY_PATH,
as the loader's cache would after a real install) and search with it;
then `make uninstall` removes it."""
import glob
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

from support import BUILD, ROOT

SCRIPT = r"""
import os, sys
import banyan
stage = sys.argv[1]
assert banyan.__file__.startswith(stage), banyan.__file__
assert banyan.library_path().startswith(os.path.join(stage, "usr/lib/")), banyan.library_path()
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
    for key in ("BANYAN_LIBRARY", "PYTHONPATH", "MAKEFLAGS", "MFLAGS", "MAKELEVEL"):
        env.pop(key, None)
    return env


@unittest.skipUnless(shutil.which("make"), "make is not installed")
@unittest.skipUnless(os.path.exists(os.path.join(BUILD, "libbanyan.so.0")), "no build")
class InstallTest(unittest.TestCase):
    def make(self, target, stage):
        # -o all: install what is built, without building (the suite runs
        # after the build, and must not rebuild under a running make).
        build = os.path.relpath(BUILD, ROOT)
        return subprocess.run(
            ["make", "-o", "all", target, f"B={build}", "PREFIX=/usr", f"DESTDIR={stage}",
             f"PYTHON={sys.executable}"],
            cwd=ROOT, env=clean_env(), capture_output=True, text=True)

    def test_installed_package_searches_then_uninstalled(self):
        with tempfile.TemporaryDirectory() as stage:
            done = self.make("install", stage)
            self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
            inits = glob.glob(os.path.join(stage, "usr/lib/python3*/*-packages/banyan/__init__.py"))
            self.assertEqual(len(inits), 1, done.stdout)
            site = os.path.dirname(os.path.dirname(inits[0]))
            with open(os.path.join(site, "banyan", "_installed.py")) as f:
                self.assertEqual(f.read().strip(), 'LIBDIR = "/usr/lib"')
            env = clean_env()
            env["PYTHONPATH"] = site
            env["LD_LIBRARY_PATH"] = os.path.join(stage, "usr/lib")
            env["PYTHONDONTWRITEBYTECODE"] = "1"
            run = subprocess.run([sys.executable, "-c", SCRIPT, stage], cwd=stage, env=env,
                                 capture_output=True, text=True)
            self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
            self.assertIn("installed package ok", run.stdout)

            done = self.make("uninstall", stage)
            self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
            self.assertFalse(os.path.exists(os.path.join(site, "banyan")))
            self.assertEqual(glob.glob(os.path.join(stage, "usr/lib/libbanyan*")), [])
            gone = subprocess.run([sys.executable, "-c", "import banyan"], cwd=stage, env=env,
                                  capture_output=True, text=True)
            self.assertNotEqual(gone.returncode, 0)


if __name__ == "__main__":
    unittest.main()
