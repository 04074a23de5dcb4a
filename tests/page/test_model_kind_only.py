"""The page tells a model's kind in one place, `modelKind` in web/src/settings/settings.js (by the agent's
rule, py/agentlite/profiles/choice.py): no other page module compares a base URL with the model in the
page's, or a model's name with a constant, so a new kind of model is one rule on each side."""

from __future__ import annotations

import re

from buildsys.common import WEB

SRC = WEB / "src"
THE_ONE_PLACE = SRC / "settings" / "settings.js"
# A base URL or a model's name compared with something, or the model in the page's base URL compared.
TESTS = re.compile(
    r"(?:base_url|\bmodel)\s*[!=]==\s*[\"'`A-Z]"
    r"|[!=]==\s*(?:LOCAL_BASE|DEMO_MODEL)\b|(?:LOCAL_BASE|DEMO_MODEL)\s*[!=]=="
    r"|base_url\)?\.(?:startsWith|endsWith|includes|match)\("
)


def kind_tests_in(text: str) -> list[str]:
    return [
        line.strip() for line in text.splitlines() if TESTS.search(line) and not line.strip().startswith("//")
    ]


def test_the_pattern_sees_the_tests_it_is_for() -> None:
    assert kind_tests_in("if (settings.base_url === LOCAL_BASE) x();")
    assert kind_tests_in('if (!base || model === "demo") return;')
    assert kind_tests_in("if (base === LOCAL_BASE) return x;")
    assert kind_tests_in("return LOCAL_BASE === s.base_url;")
    assert kind_tests_in('if (settings.base_url.startsWith("local:")) x();')
    assert not kind_tests_in('if (preset.value === "demo") preset.value = "custom";')
    assert not kind_tests_in("const kind = modelKind(settings);")


def test_no_page_module_but_the_settings_tells_a_models_kind() -> None:
    found = {
        str(path.relative_to(SRC)): hits
        for path in sorted(SRC.rglob("*.js"))
        if path != THE_ONE_PLACE and "generated" not in path.parts
        for hits in [kind_tests_in(path.read_text(encoding="utf-8"))]
        if hits
    }
    assert found == {}, f"a model's kind told outside settings/settings.js modelKind: {found}"
