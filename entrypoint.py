"""Container entry point of the GitHub Action: hands over to scanner.action.runner.main()."""
import os
import sys

# Running from a source checkout (not installed): make the package importable.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from scanner.action.runner import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
