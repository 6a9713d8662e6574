"""Where a risk sits and what a later PR touches or names: pure functions of patches and texts."""

from __future__ import annotations

import pytest

from chatbot.team.evidence import references, risk_place, same_symbol, touched_symbols

METHOD_PATCH = """@@ -40,6 +40,12 @@ class Rollout:
     def gather_buffers(self, shards):
-        out = [s.cpu() for s in shards]
+        out = [s.to("cuda") for s in shards]
         return out
@@ -90,3 +96,5 @@ class Rollout:
     def release(self):
+        torch.cuda.empty_cache()
"""
GO_PATCH = """@@ -10,4 +10,6 @@ func (s *Server) Start() error {
+	s.pool.Grow(4)
"""
YAML_PATCH = """@@ -3,4 +3,4 @@ rollout:
   agent:
-    max_turns: 5
+    max_turns: 10
"""


def test_a_changed_line_belongs_to_the_function_opened_above_it_in_its_hunk():
    assert touched_symbols(METHOD_PATCH) >= {"gather_buffers", "release"}


def test_the_hunk_header_names_the_function_when_its_definition_is_out_of_view():
    assert "Start" in touched_symbols(GO_PATCH)


def test_configuration_keys_set_on_changed_lines_count_as_touched():
    assert "max_turns" in touched_symbols(YAML_PATCH)


def test_no_patch_touches_nothing():
    assert touched_symbols(None) == frozenset()


def test_a_whole_file_risk_sits_in_the_function_where_the_change_concentrates():
    place = risk_place("verl/rollout.py", {"verl/rollout.py": METHOD_PATCH, "verl/other.py": None})
    assert (place.file, place.symbol) in {
        ("verl/rollout.py", "gather_buffers"),
        ("verl/rollout.py", "release"),
    }


def test_a_quoted_line_sits_in_the_function_that_encloses_it():
    place = risk_place("verl/rollout.py: torch.cuda.empty_cache()", {"verl/rollout.py": METHOD_PATCH})
    assert place.symbol == "release"


def test_a_config_change_sits_in_its_key():
    place = risk_place("conf/ppo.yaml: rollout.agent.max_turns: 5 → 10", {"conf/ppo.yaml": YAML_PATCH})
    assert place == type(place)("conf/ppo.yaml", "rollout.agent.max_turns")
    assert same_symbol(place.symbol, touched_symbols(YAML_PATCH))


def test_evidence_naming_no_file_of_the_pr_has_no_place():
    assert risk_place("title: [BREAKING] drop the v1 API", {"a.py": METHOD_PATCH}).file == ""


def test_the_longest_named_path_wins_over_its_prefix():
    place = risk_place("src/a.py.bak: x", {"src/a.py": "", "src/a.py.bak": ""})
    assert place.file == "src/a.py.bak"


@pytest.mark.parametrize(
    "text",
    [
        "Fixes #12",
        "fix #12",
        "This closes #12.",
        "Resolves: #12",
        "resolved acme/engine#12",
        "修复 #12 引入的显存泄漏",
        "修复了问题 #12",
        "解决 #12",
        "Fixes https://github.com/acme/engine/pull/12",
    ],
)
def test_a_closing_keyword_before_a_reference_says_the_pr_fixes_it(text):
    assert references(text, "acme/engine") == {12: "fixes"}


@pytest.mark.parametrize(
    "text",
    [
        "Follow-up to #12",
        "see #12 for the design",
        "继 #12 之后补充测试",
        "as discussed in https://github.com/acme/engine/pull/12",
        "(#12)",
    ],
)
def test_a_bare_reference_cites_the_pr(text):
    assert references(text, "acme/engine") == {12: "cites"}


@pytest.mark.parametrize(
    "text",
    [
        "Fixes other/repo#12",
        "see https://github.com/other/repo/pull/12",
        "color: #12abef in CSS is not a reference",
        "item&#12; is an HTML entity",
        "no reference at all",
    ],
)
def test_other_repos_colours_and_entities_are_not_references(text):
    assert references(text, "acme/engine") == {}


def test_a_fix_wins_over_a_citation_of_the_same_pr():
    assert references("see #12; fixes #12", "acme/engine") == {12: "fixes"}


def test_a_class_named_by_the_hunk_header_is_not_the_changed_function():
    patch = "@@ -100,3 +100,3 @@ class RayPPOTrainer:\n         self.step += 1\n-        self.log()\n+        self.log(x)\n"
    assert "RayPPOTrainer" not in touched_symbols(patch)
    assert risk_place("verl/trainer.py", {"verl/trainer.py": patch}).symbol == ""


@pytest.mark.parametrize("name", ["__init__", "__post_init__", "wrapper", "inner"])
def test_a_risk_is_not_placed_in_a_function_whose_name_every_file_has(name):
    patch = f"@@ -1,3 +1,3 @@ def {name}(self):\n-    a = 1\n+    a = 2\n"
    assert risk_place("pkg/x.py", {"pkg/x.py": patch}).symbol == ""
    assert risk_place("pkg/x.py: a = 2", {"pkg/x.py": patch}).symbol == ""


@pytest.mark.parametrize("key", ["enable", "steps", "path"])
def test_a_bare_configuration_key_names_no_place(key):
    """`enable:` recurs under many sections of one config file, and a diff line shows only the leaf: a
    later PR that changes some `enable:` of the file is no follow-up of a risk about another one."""
    patch = f"@@ -3,4 +3,4 @@ profiler:\n   tool:\n-    {key}: False\n+    {key}: True\n"
    assert risk_place(f"conf/ppo.yaml: -{key}: False", {"conf/ppo.yaml": patch}).symbol == ""
    dotted = risk_place(f"conf/ppo.yaml: profiler.tool.{key}: False → True", {"conf/ppo.yaml": patch})
    assert not same_symbol(dotted.symbol, touched_symbols(patch))


@pytest.mark.parametrize(
    ("symbol", "touched", "same"),
    [
        ("rollout.agent.max_turns", {"max_turns"}, True),
        ("data_dir", {"data_dir"}, True),
        ("rollout.n", {"n"}, False),
        ("actor.optim.lr", {"lr"}, False),
        ("actor.optim.lr", {"actor.optim.lr"}, True),
    ],
)
def test_a_dotted_key_matches_by_its_leaf_only_when_the_leaf_is_compound(symbol, touched, same):
    assert same_symbol(symbol, touched) is same


@pytest.mark.parametrize("kind", ["def", "class"])
def test_a_risk_about_a_removed_definition_sits_in_that_definition(kind):
    """ "public definitions removed (`old_api`)" is about `old_api`, not the function where the rest of the
    file's change concentrates: a later PR that changes only that function does not follow it up."""
    patch = (
        f"@@ -10,9 +10,3 @@ import torch\n-{kind} old_api(x):\n-    return x\n-\n"
        "@@ -40,4 +34,8 @@ def backward(ctx, grad):\n-    a = 1\n+    a = 2\n+    b = 3\n+    c = 4\n"
    )
    place = risk_place("pkg/patch.py: old_api", {"pkg/patch.py": patch})
    assert place.symbol == "old_api"
    later = "@@ -34,3 +34,3 @@ def backward(ctx, grad):\n-    a = 2\n+    a = 5\n"
    assert not same_symbol(place.symbol, touched_symbols(later))
