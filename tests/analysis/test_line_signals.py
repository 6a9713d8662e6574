"""The literal prefilters of the patch scans find exactly what the full patterns find: each signal's
matches equal its pattern's on patches of many shapes (ASCII and not, tabs, CRLF, markers at line ends,
several hits per line, the last line without a newline)."""

from __future__ import annotations

import pytest

from chatbot.analysis import features as f
from chatbot.analysis.boilerplate import _MARKUP_START, _PROMPT_WORDS, _PROMPTS

SIGNALS = {
    name: getattr(f, name)
    for name in (
        "_TODO",
        "_CLI_ARG",
        "_CLI_ARG_REMOVED",
        "_ENV_READ",
        "_PLATFORM",
        "_SECURITY",
        "_MEMORY_SIGNAL",
        "_CONCURRENCY_SIGNAL",
    )
}
PATCHES = [
    "@@ -1,3 +1,4 @@\n+    # TODO: drop after 2.0\n-    x = 1\n+    if is_torch_npu_available():\n     pass",
    '+    parser.add_argument("--fast", action="store_true")\n-    parser.add_argument("--slow")\n+x',
    '+    token = os.environ.get("HF_TOKEN")\n-    os.getenv("OLD_VAR")\n+    os.environ["NEW_VAR"] = "1"',
    "+    if torch.version.hip:\n+        device = 'ROCm'\n+    elif IS_NPU:\n+        import torch_npu\n+ship = 1",
    "+    model = torch.load(path)\n+    yaml.load(f, Loader=SafeLoader)\n+    eval(expr)\n+    subprocess.run(c, shell = True)",
    "+    torch.cuda.empty_cache()\n-    del params\n+    self.model.to('cpu')\n+    tensor.cpu()\n+    model = del_model",
    "+    dist.all_reduce(x)\n-    torch.distributed.barrier()\n+    lock = threading.Lock()\n+    ray.get(ref)",
    "+\t# Hack around the bug\r\n+\tdel\tbuffers\r\n+\tdist.barrier()\r\n",
    "+    # 显存优化：TODO 在 NPU 上验证\n+    if is_npu_available() and __version__ >= '2':\n+    offload_params(model)",
    "+    İstanbul = 'npu'\n+    platform = get_version()",
    "+    offload_optimizer(opt)  # TODO offload again; TODO twice",
    "+++ b/file.py\n--- a/file.py\n+# plain line",
    "",
]


@pytest.mark.parametrize("name", sorted(SIGNALS))
@pytest.mark.parametrize("patch", PATCHES)
def test_a_signal_finds_what_its_full_pattern_finds(name: str, patch: str) -> None:
    signal = SIGNALS[name]
    expected = [m.group(0).rstrip() for m in signal.pattern.finditer(patch)]
    assert [m.group(0).rstrip() for m in signal.matches(patch)] == expected


def test_every_template_prompt_holds_one_of_the_prefilter_words() -> None:
    for prompt in _PROMPTS:
        assert any(word in prompt.lower() for word in _PROMPT_WORDS), prompt


def test_markup_start_covers_every_block_opening() -> None:
    assert set("`~#-*_+>|") <= _MARKUP_START and set("0123456789") <= _MARKUP_START


@pytest.mark.parametrize(
    "text",
    [
        "Fix OOM and a memory LEAK in rollout; deadlock on exit",
        "修复显存溢出与内存泄漏，避免死锁和卡死；性能回退",
        "Segfault (core dump) when the run got stuck; Data Loss after corrupted checkpoints",
        "NaN loss and inf gradients; a RACE condition; CVE-2024-1234 security fix",
        "peak memory 显存占用 from 78GB; hung workers; regression",
        "room zoom infra dead code races nothing severe",
    ],
)
def test_keyword_prefilters_keep_every_keyword_class(text: str) -> None:
    expected = tuple(name for name, pattern in f.KEYWORDS.items() if pattern.search(text))
    assert f._keywords(text) == expected
    assert set(f._KEYWORD_NEEDLES) == set(f.KEYWORDS)


def test_a_search_document_indexes_each_analysis_line_once_after_the_translated_title() -> None:
    from chatbot.analysis import HeuristicAnalyzer
    from chatbot.store.analyses import ANALYSIS_MARK, search_document

    from .builders import code, make_pr

    pr = make_pr(
        "Fix OOM in the reference model", body="Frees logits after each step.", files=[code("pkg/a.py", 90)]
    )
    analysis = HeuristicAnalyzer().analyze(pr)
    written = (
        search_document(pr.header.title, analysis, body=pr.header.body)
        .partition(ANALYSIS_MARK)[2]
        .strip("\n")
    )
    lines = written.split("\n")
    assert lines[0] == analysis.title_zh
    assert len(lines[1:]) == len(set(lines[1:]))
    assert all(point in lines for point in analysis.key_points if point not in (pr.header.body or ""))


def test_a_search_document_leaves_out_analysis_lines_that_quote_the_description() -> None:
    from chatbot.analysis import HeuristicAnalyzer
    from chatbot.store.analyses import ANALYSIS_MARK, search_document

    from .builders import code, make_pr

    body = "## What\n\n1. **Frees** the `logits` after each step, so peak memory stays flat."
    pr = make_pr("Fix OOM in the reference model", body=body, files=[code("pkg/a.py", 90)])
    analysis = HeuristicAnalyzer().analyze(pr)
    assert any("Frees" in p for p in analysis.key_points)  # quoted, markup and numbering dropped
    document = search_document(pr.header.title, analysis, body=pr.header.body)
    own, _, written = document.partition(ANALYSIS_MARK)
    assert "Frees" in own
    assert "Frees" not in written
    assert written.strip("\n").split("\n")[0] == analysis.title_zh
