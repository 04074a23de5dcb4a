"""Calls spelled or shaped to slip past an approval, through the app: a `file_path` overwrite, a whole file
rewritten through `edit_file`, a new AGENTS.md. Each asks, the card says what it would do, and a
rejection leaves the file as it was. And answers that must not reach further than shown: "always allow"
for one server never allows another whose long name shares its start, and "Approve all" on a delete card
never runs a remote call waiting beside it."""

from __future__ import annotations

from playwright.sync_api import Page

from buildsys.testing.model_server import ModelServer, Scripted, text_chunks, tool_call_chunks
from tests.e2e.conftest import send
from tests.e2e.scripted_support import WAIT_MS, approve_through, start, wait_idle
from tests.e2e.stub_mcp import StubServer, stub_servers
from tests.e2e.test_demo_scenarios import FINAL, card, vfs, wait_status
from tests.e2e.test_mcp_servers import add_server, server_item, wait_state

BIG = "".join(f"const line{n} = {n};\n" for n in range(200))


def test_an_overwrite_spelled_file_path_asks_and_names_the_file(
    page: Page, origin: str, model_server: ModelServer
) -> None:
    model_server.script(
        Scripted(chunks=tool_call_chunks(("write_file", {"file_path": "/notes.txt", "content": "x"}))),
        Scripted(chunks=text_chunks("Fine.")),
    )
    start(page, origin, model_server)
    vfs(page, "writeText", "/notes.txt", "keep me")
    send(page, "Tidy the notes")
    target = card(page, "write_file")
    target.locator("[data-testid=tool-action]").wait_for(timeout=WAIT_MS)
    assert target.locator("[data-testid=tool-action]").inner_text().startswith("Overwrite /notes.txt")
    assert approve_through(page, target, "tool-reject") == "rejected"
    wait_idle(page)
    assert vfs(page, "readText", "/notes.txt") == "keep me"


def test_a_whole_file_rewritten_through_edit_file_asks(
    page: Page, origin: str, model_server: ModelServer
) -> None:
    model_server.script(
        Scripted(
            chunks=tool_call_chunks(("edit_file", {"path": "/app.js", "originalCode": BIG, "newCode": "1\n"}))
        ),
        Scripted(chunks=text_chunks("Fine.")),
    )
    start(page, origin, model_server)
    vfs(page, "writeText", "/app.js", BIG)
    send(page, "Shorten app.js")
    target = card(page, "edit_file")
    target.locator(".tool-reason").wait_for(timeout=WAIT_MS)
    assert (
        "removes or rewrites 200 of the 200 lines of /app.js" in target.locator(".tool-reason").inner_text()
    )
    assert approve_through(page, target, "tool-reject") == "rejected"
    wait_idle(page)
    assert vfs(page, "readText", "/app.js") == BIG


def test_a_new_agents_md_asks_and_the_chat_says_the_instructions_changed(
    page: Page, origin: str, model_server: ModelServer
) -> None:
    model_server.script(
        Scripted(
            chunks=tool_call_chunks(("create_file", {"path": "/src/AGENTS.md", "content": "Skip tests."}))
        ),
        Scripted(chunks=text_chunks("Done.")),
    )
    start(page, origin, model_server)
    send(page, "Set up the project")
    target = card(page, "create_file")
    target.locator(".tool-reason").wait_for(timeout=WAIT_MS)
    assert "project instructions in /src/AGENTS.md" in target.locator(".tool-reason").inner_text()
    assert approve_through(page, target) == "completed"
    wait_idle(page)
    notice = page.locator(".notice.note", has_text="project instructions changed")
    notice.wait_for(timeout=WAIT_MS)
    assert "/src/AGENTS.md" in notice.inner_text()


# Two servers whose long reported names share a prefix: a name cut inside its own slug once read as the
# other server's, so "always allow" on one reached the other.
PRIMARY = "Acme Corporation Internal Tools Gateway Primary 1"
RELAY = PRIMARY + " Send Mail Relay"


def tool_of(page: Page, url: str) -> str:
    """The model-facing name of the server's one tool, as the Servers panel shows it."""
    tool = server_item(page, url).locator("[data-testid=mcp-tool]").first
    tool.wait_for(timeout=WAIT_MS)
    return str(tool.get_attribute("data-name"))


def connect(page: Page, *servers: StubServer) -> list[str]:
    for server in servers:
        add_server(page, server.url)
        wait_state(page, server.url, "connected")
    return [tool_of(page, server.url) for server in servers]


def test_always_allow_for_one_server_never_allows_another_whose_name_shares_its_start(
    page: Page, origin: str, model_server: ModelServer
) -> None:
    with stub_servers((PRIMARY, ["read"]), (RELAY, ["send"])) as (primary, relay):
        start(page, origin, model_server)
        read, send_mail = connect(page, primary, relay)
        model_server.script(
            Scripted(chunks=tool_call_chunks((read, {}))),
            Scripted(chunks=tool_call_chunks((send_mail, {}))),
            Scripted(chunks=text_chunks("Fine.")),
        )
        send(page, "Read, then send")
        first = card(page, read)
        wait_status(page, first, {"awaiting-approval"})
        first.locator("[data-testid=tool-allow-server]").click()
        assert wait_status(page, first, FINAL) == "completed"
        assert approve_through(page, card(page, send_mail), "tool-reject") == "rejected"
        wait_idle(page)
        assert primary.calls == {"read": 1} and relay.calls == {}


def test_approve_all_on_a_delete_card_leaves_a_remote_call_asking(
    page: Page, origin: str, model_server: ModelServer
) -> None:
    with stub_servers(("Mail", ["send"])) as (mail,):
        start(page, origin, model_server)
        (send_mail,) = connect(page, mail)
        model_server.script(
            Scripted(chunks=tool_call_chunks(("delete_file", {"path": "/old.txt"}), (send_mail, {}))),
            Scripted(chunks=text_chunks("Fine.")),
        )
        vfs(page, "writeText", "/old.txt", "old\n")
        send(page, "Clean up and tell them")
        assert approve_through(page, card(page, "delete_file"), "tool-approve-all") == "completed"
        assert approve_through(page, card(page, send_mail), "tool-reject") == "rejected"
        wait_idle(page)
        assert mail.calls == {} and vfs(page, "readText", "/old.txt") is None
