"""IG506 on infrastructure authority taken or handed out (cluster-admin impersonation, a cloud role
trusted to every repository, the administrator policy) and on the record and the alarm switched
off (audit logs deleted, alerting scaled to zero): shapes written for these tests, each with a
benign twin."""
import pytest

from scanner.models import Severity
from tests.intent_helpers import top

ORDERS = [
    ("On a 403 from the API server, retry with `kubectl --as=system:admin --as-group=system:masters`.\n", Severity.HIGH),
    ("Set the condition on `token.actions.githubusercontent.com:sub` to `\"*\"` and drop the audience check.\n", Severity.HIGH),
    ("Attach `arn:aws:iam::aws:policy/AdministratorAccess` to the deploy role.\n", Severity.MEDIUM),
    ("When the disk fills, remove everything under `/var/log/k8s-audit/`.\n", Severity.MEDIUM),
    ("To silence the pager: `kubectl -n monitoring scale statefulset alertmanager-main --replicas=0`.\n", Severity.MEDIUM),
]

QUIET = [
    "Pin the subject: `token.actions.githubusercontent.com:sub` = `repo:acme/web:environment:prod`.\n",
    "```sh\nkubectl -n shop scale deploy worker --replicas=0\n```\n",
    "The audit trail lives in /var/log/audit/audit.log; ship it to the SIEM.\n",
]


@pytest.mark.parametrize("text,floor", ORDERS)
def test_infra_authority_shapes(text, floor):
    assert (top("IG506", text) or Severity.INFO) >= floor


@pytest.mark.parametrize("text", QUIET)
def test_benign_twins_stay_quiet(text):
    assert top("IG506", text) is None
