"""The deployment headers file (web/_headers, buildsys/build/deploy_headers.py): no path of the app can be
framed by another site under either way the hosts combine rules, the app's own pages by no one, and the
sandbox frames keep the opaque origin `python build.py serve` gives them."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from buildsys.build import assemble, deploy_headers, offline
from buildsys.build.serve import FRAME_HEADERS
from buildsys.common import WEB

RULES = deploy_headers.parse((WEB / "_headers").read_text())
PAGES = sorted(
    "/" + out for out in {**assemble.STATIC, **assemble.BENCH_STATIC}.values() if out.endswith(".html")
)


def joined(url_path: str) -> dict[str, str]:
    """The headers as Cloudflare Pages combines them: a name named again is joined with a comma."""
    found: dict[str, list[str]] = {}
    for rule in RULES:
        if rule.matches(url_path):
            for name, value in rule.headers:
                found.setdefault(name.lower(), []).append(value)
    return {name: ", ".join(values) for name, values in found.items()}


def replaced(url_path: str) -> dict[str, str]:
    """The headers as Netlify (and `python build.py serve`) combines them: the later rule wins."""
    return {name.lower(): value for name, value in deploy_headers.headers_for(RULES, url_path).items()}


def refuses_other_sites(headers: dict[str, str]) -> bool:
    policies = [p.strip() for p in headers.get("content-security-policy", "").split(",")]
    ancestors = [d.strip() for p in policies for d in p.split(";") if d.strip().startswith("frame-ancestors")]
    framing = {v.strip() for v in headers.get("x-frame-options", "").split(",")}
    return (
        bool(ancestors)
        and all(a in ("frame-ancestors 'self'", "frame-ancestors 'none'") for a in ancestors)
        and (framing <= {"SAMEORIGIN", "DENY"} and bool(framing))
    )


def test_the_build_ships_the_file_and_the_service_worker_never_caches_it() -> None:
    assert assemble.STATIC[deploy_headers.FILE] == deploy_headers.FILE  # copied to dist/ as it is
    assert deploy_headers.FILE in offline.NOT_PRECACHED_NAMES  # the hosts that read it do not serve it


def test_the_app_serves_these_pages() -> None:
    assert "/index.html" in PAGES and "/oauth-callback.html" in PAGES


@pytest.mark.parametrize("combine", [joined, replaced])
@pytest.mark.parametrize("page", ["/", *PAGES])
def test_every_page_of_the_app_refuses_every_frame(page: str, combine: object) -> None:
    headers = combine(page)  # type: ignore[operator]
    assert "frame-ancestors 'none'" in headers["content-security-policy"]
    assert "DENY" in headers["x-frame-options"]
    assert refuses_other_sites(headers)
    assert headers["referrer-policy"] == "no-referrer" and headers["x-content-type-options"] == "nosniff"


@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz-_./0123456789", max_size=40))
def test_no_path_can_be_framed_by_another_site_either_way(tail: str) -> None:
    for combine in (joined, replaced):
        assert refuses_other_sites(combine("/" + tail)), tail


@pytest.mark.parametrize(("path", "sandbox"), sorted(FRAME_HEADERS.items()))
def test_a_sandbox_frame_gets_its_opaque_origin_from_the_host_too(path: str, sandbox: str) -> None:
    for combine in (joined, replaced):
        headers = combine(path)
        assert sandbox in headers["content-security-policy"]
        assert "frame-ancestors 'none'" not in headers["content-security-policy"], (
            "the app could not frame it"
        )
        assert headers["x-frame-options"] == "SAMEORIGIN"


@pytest.mark.parametrize(
    "text",
    ["index.html\n  X-A: b\n", "/x\n  no colon here\n", "  X-A: b\n", "/x\n  X-A:\n", "/x\n  : b\n"],
)
def test_a_line_the_hosts_would_read_otherwise_is_refused(text: str) -> None:
    with pytest.raises(deploy_headers.HeadersFileError):
        deploy_headers.parse(text)


def test_a_splat_matches_everything_under_it_and_an_exact_path_only_itself() -> None:
    rules = deploy_headers.parse("# c\n/a/*\n  X-A: 1\n\n/a/b\n  X-A: 2\n  X-B: 3\n")
    assert deploy_headers.headers_for(rules, "/a/b") == {"X-A": "2", "X-B": "3"}
    assert deploy_headers.headers_for(rules, "/a/c/d") == {"X-A": "1"}
    assert deploy_headers.headers_for(rules, "/ab") == {}
