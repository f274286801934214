"""scanner.hosts matches hosts by label, never by substring of the URL."""
import pytest

from scanner import hosts


@pytest.mark.parametrize("host,expected", [
    ("api.github.com", "github.com"), ("a.b.co.uk", "b.co.uk"), ("x.github.io", "x.github.io"),
    ("github.com", "github.com"), ("203.0.113.7", "203.0.113.7"), ("localhost", "localhost"),
])
def test_registrable_domain(host, expected):
    assert hosts.registrable_domain(host) == expected


@pytest.mark.parametrize("url,vendor", [
    ("https://sh.rustup.rs", True),
    ("https://raw.githubusercontent.com/Homebrew/install/HEAD/install.sh", True),
    ("http://sh.rustup.rs", False),                        # plain http is never a vendor's
    ("https://203.0.113.5/i.sh?v=rustup.rs", False),       # vendor name in the query string
    ("https://rustup.rs.evil.example/x", False),           # vendor name as a sub-domain label
    ("https://raw.githubusercontent.com/homebrewx/install.sh", False),
    ("https://evil-brew.sh/install", False),
])
def test_vendor_installer(url, vendor):
    assert hosts.is_vendor_installer(url) is vendor


def test_credential_goes_home():
    assert hosts.credential_goes_home("NAMECHEAP_API_KEY", "https://api.namecheap.com/xml.response")
    assert hosts.credential_goes_home("DD_API_KEY", "https://api.datadoghq.com/api/v1/series")
    assert not hosts.credential_goes_home("ANTHROPIC_API_KEY", "https://api.anthropic-edge.com/v1")
    assert not hosts.credential_goes_home("AWS_SECRET_ACCESS_KEY", "https://hooks.slack.com/x")
    assert not hosts.credential_goes_home("GITHUB_TOKEN", "https://198.51.100.4/")


def test_paste_and_relay():
    assert hosts.is_paste_or_relay("https://webhook.site/abc")
    assert hosts.is_paste_or_relay("https://discord.com/api/webhooks/1/x")
    assert not hosts.is_paste_or_relay("https://discord.com/channels/1")


@pytest.mark.parametrize("host,brand", [
    ("huggingface.github.io", ""),                  # Hugging Face's own GitHub Pages (a listed account)
    ("anthropics.github.io", ""),
    ("huggingfface.github.io", "huggingface"),      # one edit from the account: a look-alike
    ("huggingface-hub.github.io", "huggingface"),   # not the account itself
    ("anthropic.github.io", "anthropic"),           # the brand's word, but not its listed account
    ("huggingface.github.io.evil.example", "github"),
])
def test_brand_pages_accounts(host, brand):
    assert hosts.look_alike_brand(host) == brand
