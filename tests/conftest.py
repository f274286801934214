"""Shared fixtures. Add yours below; keep each one small and documented."""
import pytest


@pytest.fixture(scope="session")
def github_mock(tmp_path_factory):
    """GitHub's REST description served by Prism behind a recording proxy (see prism_support)."""
    import prism_support

    why = prism_support.available()
    if why:
        pytest.fail(why)  # the tools are part of the test setup: missing is a failure, not a skip
    mock = prism_support.GitHubMock(str(tmp_path_factory.mktemp("prism")))
    yield mock
    mock.stop()


@pytest.fixture
def gh(github_mock):
    """The mock with a clean recording and no scripted answers for each test. Afterwards, every
    request the test made must have passed Prism's validation against GitHub's REST description."""
    github_mock.proxy.reset()
    yield github_mock
    bad = [(e.method, e.path, e.request_violations) for e in github_mock.proxy.exchanges if e.request_violations]
    assert not bad, f"requests GitHub's REST description rejects: {bad}"
