"""Run the Python client's tests (standard library unittest) and print `N passed, N failed`; with EAGLES_PY_REPORT
set, also write {"passed": N, "failed": N} there (for .ci/run, which adds them to the TypeScript count)."""

import json
import os
import sys
import unittest
from pathlib import Path

here = Path(__file__).resolve().parent
suite = unittest.defaultTestLoader.discover(str(here), top_level_dir=str(here))
result = unittest.TextTestRunner(verbosity=1).run(suite)
failed = len(result.failures) + len(result.errors) + len(result.unexpectedSuccesses)
passed = result.testsRun - failed - len(result.skipped)
report = os.environ.get("EAGLES_PY_REPORT")
if report:
    Path(report).write_text(json.dumps({"passed": passed, "failed": failed}))
print(f"python client: {passed} passed, {failed} failed")
sys.exit(0 if result.wasSuccessful() and result.testsRun else 1)
