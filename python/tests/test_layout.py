"""The ctypes structures against the C headers: a C program, generated here
from the package's own field lists and compiled with the system's C
compiler against include/, prints every field's offset and every
structure's size, and each must equal what ctypes computes. A field added,
removed, reordered or retyped in a header fails here, by name."""
import os
import shutil
import subprocess
import tempfile
import unittest

from support import ROOT, banyan  # noqa: F401  (sets the path)

from banyan import _lib

# Where a Python name differs from the C one (def is a Python keyword).
C_NAMES = {("banyan_param", "default"): "def"}
CC = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")


def probe_source():
    lines = ["#include <stddef.h>", "#include <stdio.h>", '#include "banyan.h"',
             "int main(void)", "{"]
    for cname, struct in _lib.STRUCTS.items():
        lines.append(f'    printf("{cname} sizeof %zu\\n", sizeof({cname}));')
        for field, _ in struct._fields_:
            c = C_NAMES.get((cname, field), field)
            lines.append(f'    printf("{cname} {field} %zu\\n", offsetof({cname}, {c}));')
    lines.append('    printf("enum sizeof %zu\\n", sizeof(banyan_select));')
    lines += ["    return 0;", "}"]
    return "\n".join(lines) + "\n"


@unittest.skipUnless(CC, "no C compiler (apt-get install build-essential)")
class LayoutTest(unittest.TestCase):
    def test_structures_match_the_headers(self):
        with tempfile.TemporaryDirectory() as tmp:
            src = os.path.join(tmp, "probe.c")
            exe = os.path.join(tmp, "probe")
            with open(src, "w") as f:
                f.write(probe_source())
            subprocess.run([CC, "-std=c11", "-I", os.path.join(ROOT, "include"), src, "-o", exe],
                           check=True, capture_output=True)
            out = subprocess.run([exe], check=True, capture_output=True, text=True).stdout
        c = {}
        for line in out.splitlines():
            name, field, value = line.split()
            c[name, field] = int(value)
        import ctypes
        self.assertEqual(c["enum", "sizeof"], ctypes.sizeof(ctypes.c_int))
        for cname, struct in _lib.STRUCTS.items():
            self.assertEqual(ctypes.sizeof(struct), c[cname, "sizeof"], f"sizeof({cname})")
            for field, _ in struct._fields_:
                self.assertEqual(getattr(struct, field).offset, c[cname, field],
                                 f"offsetof({cname}, {field})")


if __name__ == "__main__":
    unittest.main()
