#!/usr/bin/env python3
"""Point a released action.yml at a published image by digest.

    python3 scripts/release_action.py ghcr.io/OWNER/NAME@sha256:HEX [--action action.yml]

The repository's action.yml builds the Dockerfile on every run (`image: Dockerfile`). A release
(.github/workflows/release.yml) pushes that image once, signs it and attests its provenance, then
runs this script so the released commit's action.yml reads `image: docker://IMAGE@sha256:...`:
a user's job pulls the verified image, and a digest cannot be moved to other content the way a tag
can. Only that one line changes; everything else (inputs, outputs, comments) stays as reviewed.
Standard library only: it runs on a bare runner.
"""
from __future__ import annotations

import argparse
import re
import sys

REFERENCE = re.compile(r"^[a-z0-9][a-z0-9.-]*(?::[0-9]+)?(?:/[a-z0-9][a-z0-9._-]*)+@sha256:[0-9a-f]{64}$")
IMAGE_LINE = re.compile(r"^([ \t]+)image:[ \t]*['\"]?Dockerfile['\"]?[ \t]*$", re.M)


def released(text: str, reference: str) -> str:
    """action.yml's text with its `image: Dockerfile` replaced by the image at `reference`."""
    if not REFERENCE.fullmatch(reference):
        raise ValueError(f"{reference!r} is not an image reference by digest such as ghcr.io/owner/name@sha256:<64 hex>")
    found = IMAGE_LINE.findall(text)
    if len(found) != 1:
        raise ValueError(f"expected one `image: Dockerfile` line under runs:, found {len(found)}")
    if not re.search(r"^runs:[ \t]*$", text, re.M) or not re.search(r"^[ \t]+using:[ \t]*['\"]?docker['\"]?[ \t]*$", text, re.M):
        raise ValueError("not a Docker container action (runs.using: docker)")
    return IMAGE_LINE.sub(lambda m: f"{m.group(1)}image: docker://{reference}", text, count=1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("reference", help="IMAGE@sha256:DIGEST, e.g. ghcr.io/owner/instruction-guard@sha256:...")
    parser.add_argument("--action", default="action.yml", help="the action metadata file to rewrite (default action.yml)")
    args = parser.parse_args(argv)
    try:
        with open(args.action, encoding="utf-8") as fh:
            text = released(fh.read(), args.reference)
    except (OSError, ValueError) as exc:
        print(f"release_action: {args.action}: {exc}", file=sys.stderr)
        return 2
    with open(args.action, "w", encoding="utf-8") as fh:
        fh.write(text)
    print(f"release_action: {args.action} runs docker://{args.reference}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
