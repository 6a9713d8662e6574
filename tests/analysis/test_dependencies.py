"""Dependency pins read right from every place a repository declares or installs them: each case is a
file whose patch changes pins, and the (name, change, old, new) the analyzer must find; prose, comments
and shell variables that look like specifiers are never packages."""

from __future__ import annotations

import pytest

from chatbot.analysis import HeuristicAnalyzer
from chatbot.analysis.features import extract_features
from chatbot.analysis.modules import load_module_map
from chatbot.models import PRFile

from .builders import changed, code, make_pr

MAP = load_module_map("acme/widgets")

Found = tuple[str, str, str | None, str | None]


def pins(*files: PRFile) -> set[Found]:
    features = extract_features(make_pr("[deps] chore: bump", files=list(files)), MAP)
    return {(d.name, d.change, d.old, d.new) for d in features.dependency_changes}


@pytest.mark.parametrize(
    ("file", "expected"),
    [
        # requirements and constraints files
        (
            changed("requirements.txt", ["torch==2.12.0"], ["torch==2.11.0"]),
            {("torch", "changed", "2.11.0", "2.12.0")},
        ),
        (changed("requirements-npu.txt", ["numpy<2"], []), {("numpy", "added", None, "<2")}),
        (
            changed("constraints.txt", ["vllm>=0.9,<0.11  # cuda 12"], ["vllm>=0.9,<0.10"]),
            {("vllm", "changed", ">=0.9,<0.10", ">=0.9,<0.11")},
        ),
        (
            changed("requirements.txt", ["flash-attn[cuda]==2.8.3 ; platform_system == 'Linux'"], []),
            {("flash-attn", "added", None, "2.8.3")},
        ),
        (
            changed("requirements.txt", ["Torch_NPU==2.8.0"], ["torch-npu==2.7.1"]),
            {("torch-npu", "changed", "2.7.1", "2.8.0")},
        ),
        (
            changed(
                "requirements.txt", ["-r requirements-base.txt", "--extra-index-url https://x/simple"], []
            ),
            set(),
        ),
        # pyproject.toml and setup.py / setup.cfg
        (
            changed("pyproject.toml", ['    "transformers>=4.51,<5",'], ['    "transformers>=4.49",']),
            {("transformers", "changed", ">=4.49", ">=4.51,<5")},
        ),
        # the package's own version is no dependency; the Python versions it supports are
        (
            changed(
                "pyproject.toml", ['version = "0.6.0"', 'requires-python = ">=3.10"'], ['version = "0.5.0"']
            ),
            {("python", "added", None, ">=3.10")},
        ),
        (
            changed("setup.py", ['    python_requires=">=3.10",'], ['    python_requires=">=3.9",']),
            {("python", "changed", ">=3.9", ">=3.10")},
        ),
        # a requirements folder, and a workflow's actions (a new version, not a workflow that brings one)
        (
            changed("requirements/framework.txt", ["vllm>=0.8.5"], ["vllm>=0.7.3"]),
            {("vllm", "changed", ">=0.7.3", ">=0.8.5")},
        ),
        (
            changed(
                ".github/workflows/ci.yml",
                ["      - uses: actions/checkout@v4"],
                ["      - uses: actions/checkout@v3"],
            ),
            {("actions/checkout", "changed", "v3", "v4")},
        ),
        (
            changed(".github/workflows/new.yml", ["      - uses: actions/checkout@v4", "        with:"]),
            set(),
        ),
        (
            changed("setup.py", ['        "ray[default]>=2.41.0",'], ['        "ray[default]>=2.10.0",']),
            {("ray", "changed", ">=2.10.0", ">=2.41.0")},
        ),
        (
            changed("setup.cfg", ["    peft==0.15.2"], ["    peft==0.14.0"]),
            {("peft", "changed", "0.14.0", "0.15.2")},
        ),
        # Dockerfiles: install lines, continued lines, build arguments, base images
        (
            changed(
                "docker/Dockerfile.vllm",
                ["RUN pip install --no-cache-dir vllm==0.11.0 torch==2.8.0"],
                ["RUN pip install --no-cache-dir vllm==0.10.2 torch==2.8.0"],
            ),
            {("vllm", "changed", "0.10.2", "0.11.0")},
        ),
        (
            PRFile(
                "Dockerfile",
                "modified",
                1,
                1,
                "@@ -1,4 +1,4 @@\n RUN pip install \\\n     ray==2.41.0 \\\n-    sglang==0.4.6 \\\n+    sglang==0.4.9 \\\n     --no-deps",
            ),
            {("sglang", "changed", "0.4.6", "0.4.9")},
        ),
        (
            changed("docker/Dockerfile.npu", ["ARG TORCH_VERSION=2.12.0"], ["ARG TORCH_VERSION=2.11.0"]),
            {("torch", "changed", "2.11.0", "2.12.0")},
        ),
        (
            changed(
                "Dockerfile",
                ["FROM nvcr.io/nvidia/pytorch:25.02-py3"],
                ["FROM nvcr.io/nvidia/pytorch:24.05-py3"],
            ),
            {("nvcr.io/nvidia/pytorch", "changed", "24.05-py3", "25.02-py3")},
        ),
        (
            changed(
                "Dockerfile",
                ["# upgrade torch to==2.12.0 once the wheel exists", "RUN echo upgrade to >= 2.12.0"],
                [],
            ),
            set(),
        ),
        # workflow YAML: install steps and env pins; shell variables are not packages
        (
            changed(
                ".github/workflows/e2e.yml",
                ["          pip3 install 'transformers==4.57.1' \"trl>=0.28\""],
                ["          pip3 install transformers==4.56.0"],
            ),
            {("transformers", "changed", "4.56.0", "4.57.1"), ("trl", "added", None, ">=0.28")},
        ),
        (
            changed(
                ".github/workflows/e2e.yml",
                ["        run: if [ $status==0 ]; then echo ok; fi", "          world_size==1"],
                [],
            ),
            set(),
        ),
        (
            changed(
                ".github/workflows/build.yml",
                ['      VLLM_VERSION: "0.11.0"'],
                ['      VLLM_VERSION: "0.10.2"'],
            ),
            {("vllm", "changed", "0.10.2", "0.11.0")},
        ),
        # install scripts; docs that show install lines are not the repository's pins
        (
            changed(
                "scripts/install.sh",
                ["uv pip install sglang[all]==0.5.2"],
                ["uv pip install sglang[all]==0.5.1"],
            ),
            {("sglang", "changed", "0.5.1", "0.5.2")},
        ),
        (changed("docker/README.md", ["pip install torch==2.12.0"], []), set()),
        (
            changed(
                "docs/start/install.rst", ["    pip install vllm==0.11.0"], ["    pip install vllm==0.10.0"]
            ),
            set(),
        ),
    ],
)
def test_dependency_pins_are_parsed_from_each_kind_of_file(file: PRFile, expected: set[Found]) -> None:
    assert pins(file) == expected


def test_a_pin_split_across_crlf_lines_keeps_a_clean_version() -> None:
    file = PRFile(
        "requirements.txt", "modified", 1, 1, "@@ -1 +1 @@\r\n-tokenizers==0.19.1\r\n+tokenizers==0.21\r\n"
    )
    assert pins(file) == {("tokenizers", "changed", "0.19.1", "0.21")}


def test_no_english_word_is_ever_a_package() -> None:
    prose = [
        "RUN pip install torch==2.12.0  # bump to 2.12.0",
        "# Upgrade to==2.12.0 when ready",
        "      - name: upgrade to torch>=2.12",
        '          echo "moving to vllm==0.11"',
    ]
    names = {name for name, *_ in pins(changed("docker/Dockerfile", prose, []))}
    assert names == {"torch"}


@pytest.mark.parametrize(
    ("old_path", "new_path", "line", "bumped", "name"),
    [
        ("docker/Dockerfile.rocm", "docker/Dockerfile.rocm702", "FROM ubuntu:22.04 AS base", "FROM ubuntu:24.04", "ubuntu"),
        ("requirements.txt", "requirements/base.txt", "torch==2.6.0", "torch==2.7.0", "torch"),
        ("docker/Dockerfile", "docker/Dockerfile.cu124", "RUN pip install vllm==0.8.5", "RUN pip install vllm==0.9.0", "vllm"),
    ],
)  # fmt: skip
def test_a_pin_that_moves_to_another_file_at_the_same_version_is_no_change(
    old_path, new_path, line, bumped, name
):
    """A file copied aside before the original is rewritten, or a requirements file split in two,
    installs what it did: only what really changes version is reported."""
    assert (
        pins(changed(old_path, ["# rewritten for the next release"], [line]), changed(new_path, [line]))
        == set()
    )
    moved_and_bumped = pins(changed(old_path, [], [line]), changed(new_path, [bumped]))
    assert {n for n, *_ in moved_and_bumped} == {name}, "a pin that moves and changes version is still news"


def test_the_reading_guide_names_the_versions_to_check() -> None:
    """ "Verify: images and install docs resolve transformers" names nothing to check: the guide says the
    version the diff asks for, and an image with its tag."""
    pr = make_pr(
        "Support Qwen3 MoE in the rollout",
        body="Adds Qwen3 MoE support to the rollout engine.",
        files=[
            changed("requirements.txt", ["transformers>=4.51.0"], ["transformers>=4.49.0"]),
            changed("Dockerfile", ["FROM verlai/verl:app-vllm0.8.5"], ["FROM verlai/verl:app-vllm0.8.3"]),
            code("src/pkg/rollout/moe.py", 300, status="added"),
        ],
        repo="acme/any",
    )
    analysis = HeuristicAnalyzer().analyze(pr)
    for language in ("en", "zh"):
        verify = [g for g in analysis.localized(language).reading_guide if "transformers" in g]
        assert verify and ">=4.51.0" in verify[0] and "verlai/verl:app-vllm0.8.5" in verify[0], verify


@pytest.mark.parametrize(
    ("path", "added", "removed", "expected"),
    [
        (
            "packages/ui/package.json",
            ['    "clsx": "^2.1.0",', '    "version": "1.1.0",', '    "@types/node": "20.11.5"'],
            ['    "clsx": "^1.2.1",', '    "version": "1.0.0",'],
            {("clsx", "^1.2.1", "^2.1.0"), ("@types/node", None, "20.11.5")},
        ),
        (
            "go.mod",
            ["\tgithub.com/spf13/cobra v1.8.0", "go 1.22", "require golang.org/x/sync v0.7.0"],
            ["\tgithub.com/spf13/cobra v1.7.0", "go 1.21"],
            {
                ("github.com/spf13/cobra", "v1.7.0", "v1.8.0"),
                ("go", "1.21", "1.22"),
                ("golang.org/x/sync", None, "v0.7.0"),
            },
        ),
        (
            "crates/engine/Cargo.toml",
            ['serde = "1.0.200"', 'tokio = { version = "1.37", features = ["full"] }', 'edition = "2021"'],
            ['serde = "1.0.190"', 'tokio = { version = "1.36", features = ["full"] }'],
            {("serde", "1.0.190", "1.0.200"), ("tokio", "1.36", "1.37")},
        ),
    ],
)
def test_manifests_of_other_ecosystems_declare_dependencies(
    path: str, added: list[str], removed: list[str], expected: set[tuple[str, str | None, str]]
) -> None:
    """package.json, go.mod and Cargo.toml are read like requirements files; their own fields (version,
    edition) are no dependencies."""
    pr = make_pr("Bump dependencies", files=[changed(path, added, removed)], repo="acme/any")
    found = extract_features(pr, load_module_map("acme/any")).dependency_changes
    assert {(d.name, d.old, d.new) for d in found} == expected


def test_a_major_bump_in_a_package_json_is_a_key_point_and_a_risk() -> None:
    pr = make_pr(
        "Add dark mode toggle to the settings page",
        files=[
            changed(
                "packages/ui/src/components/ThemeToggle.tsx", [f"  const v{i} = use{i}()" for i in range(40)]
            ),
            changed("packages/ui/package.json", ['    "clsx": "^2.1.0"'], ['    "clsx": "^1.2.1"']),
        ],
        repo="acme/mono",
    )
    texts = HeuristicAnalyzer().analyze(pr).localized("en")
    assert any("clsx ^1.2.1 → ^2.1.0" in point for point in texts.key_points)
    assert any("clsx" in risk and "major" in risk.lower() for risk in texts.risks), texts.risks


@pytest.mark.parametrize(
    ("file", "runtime", "old", "new"),
    [
        (changed("go.mod", ["go 1.23"], ["go 1.21"]), "Go", "1.21", "1.23"),
        (
            changed("pyproject.toml", ['requires-python = ">=3.10,<4"'], ['requires-python = ">=3.8,<4"']),
            "Python",
            "3.8",
            "3.10",
        ),
        (
            changed("pyproject.toml", ['requires-python = ">=3.10"'], ['requires-python = ">=3.8"']),
            "Python",
            "3.8",
            "3.10",
        ),
        (
            changed("setup.py", ['    python_requires=">=3.11",'], ['    python_requires=">=3.9",']),
            "Python",
            "3.9",
            "3.11",
        ),
    ],
)
@pytest.mark.parametrize("language", ["zh", "en"])
def test_a_raised_minimum_language_version_is_a_compatibility_risk_for_older_users(
    file: PRFile, runtime: str, old: str, new: str, language: str
) -> None:
    pr = make_pr("Require a newer toolchain", files=[file, code("src/app.py", 20)], repo="acme/widgets")
    analysis = HeuristicAnalyzer().analyze(pr, language=language)  # type: ignore[arg-type]
    floors = [r for r in analysis.risks if r.category == "compatibility" and runtime in r.text]
    assert len(floors) == 1 and old in floors[0].text and new in floors[0].text
    assert not any(r.category == "dependency" and runtime.lower() in r.text.lower() for r in analysis.risks)


@pytest.mark.parametrize(
    "file",
    [
        changed("go.mod", ["go 1.21"], ["go 1.23"]),  # lowered: more users can build it
        changed("pyproject.toml", ['requires-python = ">=3.8,<3.13"'], ['requires-python = ">=3.8,<3.12"']),
        changed("pyproject.toml", ['requires-python = "<3.13"'], ['requires-python = "<3.12"']),
    ],
)
def test_a_lowered_or_capped_language_version_is_no_raised_floor(file: PRFile) -> None:
    pr = make_pr("Toolchain range", files=[file], repo="acme/widgets")
    analysis = HeuristicAnalyzer().analyze(pr, language="en")
    assert not any("minimum" in r.text for r in analysis.risks)
