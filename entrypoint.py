"""Container entry point of the GitHub Action: hands over to scanner.action.flow.main().

Both standard streams are wrapped first, so that nothing written by anything in this process
(Python warnings, a worker's message, a traceback quoting a file name) can be a workflow command;
the Action writes its own commands through InertStream.command().
"""
import os
import sys

# Running from a source checkout (not installed): make the package importable.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from scanner.action.guard import InertStream  # noqa: E402

sys.stdout = InertStream(sys.stdout)
sys.stderr = InertStream(sys.stderr)

from scanner.action.flow import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
