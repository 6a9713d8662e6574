"""PR-template removal: only what the author wrote survives."""

from __future__ import annotations

from chatbot.analysis.boilerplate import clean_body

# Written after the shape of verl's PR template: hard-wrapped at 72 columns, quoted prompts whose
# continuation lines lose their `>`, checklists, a placeholder code block and a checklist section.
TEMPLATE = """### What does this PR do?

> Add **concise** overview of what this PR aims to achieve or
accomplish. Reference related GitHub issues and PRs that help with the
review.

Make the rollout worker reuse its KV cache between turns, which avoids
one allocation per turn.

### Checklist Before Starting

- [ ] Search for similar PRs. Paste at least one query link here: ...
- [x] Format the PR title as `[{modules}] {type}: {description}` (This
will be checked by the CI)
  - `{modules}` include `fsdp`, `megatron`, `rollout`, `trainer`
  - If this PR breaks any API, add `[BREAKING]` to the beginning of the title.

### Test

> For changes that can not be tested by CI (e.g., algorithm
implementation, new model support), validate by experiment(s) and show
results like training curve plots, evaluation results, etc.

### API and Usage Example

> Demonstrate how the API changes if any, and provide usage example(s)
if possible.

```python
# Add code snippet or script demonstrating how to use this
```

### Design & Code Changes

> Demonstrate the high-level design if this PR is complex, and list the
specific changes.

- Keep one cache per replica
- Free it when the replica sleeps

### Checklist Before Submitting

> [!IMPORTANT]
> Please check all the following items before requesting a review,
otherwise the reviewer might deprioritize this PR for review.

- [ ] Read the [Contribute Guide](https://example.org/CONTRIBUTING.md).
- [ ] Add unit or end-to-end test(s) to the CI workflow to cover all the
code. If not feasible, explain why: ...
"""


def test_template_prompts_checklists_and_empty_sections_are_removed() -> None:
    cleaned = clean_body(TEMPLATE)
    assert "concise" not in cleaned.text
    assert "Checklist" not in cleaned.text
    assert "[ ]" not in cleaned.text and "[x]" not in cleaned.text
    assert "{modules}" not in cleaned.text
    assert "can not be tested by CI" not in cleaned.text
    assert "Add code snippet" not in cleaned.text
    assert "IMPORTANT" not in cleaned.text
    # "Test" and "API and Usage Example" held only prompts, so their headings go too.
    assert [s.heading for s in cleaned.sections] == ["What does this PR do?", "Design & Code Changes"]


def test_the_authors_words_survive_intact() -> None:
    cleaned = clean_body(TEMPLATE)
    assert "reuse its KV cache between turns" in cleaned.text
    assert "- Keep one cache per replica\n- Free it when the replica sleeps" in cleaned.text


def test_a_prompt_the_author_answered_inside_the_quote_keeps_the_answer() -> None:
    body = "### What does this PR do?\n\n> Add one-line overview of what this PR aims to achieve or accomplish.\n> Fix the NaN in the critic loss."
    cleaned = clean_body(body)
    assert "Fix the NaN in the critic loss." in cleaned.text
    assert "one-line overview" not in cleaned.text


def test_html_comments_and_images_are_removed_and_images_counted() -> None:
    body = (
        "<!-- Please describe your change -->\nSpeeds up rollout.\n\n"
        '<img width="800" alt="curve"\nsrc="https://example.org/a.png"\n/>\n\n![plot](https://example.org/b.png)'
    )
    cleaned = clean_body(body)
    assert cleaned.text == "Speeds up rollout."
    assert cleaned.images == 2


def test_an_unterminated_html_comment_hides_the_rest() -> None:
    assert clean_body("Real text.\n<!-- template note that never ends").text == "Real text."


def test_filler_sentences_count_as_nothing() -> None:
    for filler in ("as title", "As title.", "N/A", "Not related.", "如题"):
        assert clean_body(f"### What does this PR do?\n\n{filler}\n").is_empty, filler


def test_commit_trailers_and_squash_separators_are_dropped() -> None:
    body = "Fix the loader.\n\n---------\n\nCo-authored-by: Bob <bob@example.org>\nSigned-off-by: Alice <a@example.org>"
    assert clean_body(body).text == "Fix the loader."


def test_headings_inside_code_blocks_are_code_not_sections() -> None:
    body = "### Usage\n\n```bash\n# run the trainer\npython -m verl.trainer.main_ppo\n```"
    cleaned = clean_body(body)
    assert [s.heading for s in cleaned.sections] == ["Usage"]
    assert cleaned.code_blocks == 1
    assert "python -m" not in cleaned.prose


def test_wrapped_chinese_lines_join_without_spaces() -> None:
    cleaned = clean_body("修复了多机训练时\n显存泄漏的问题。")
    assert cleaned.sections[0].plain == "修复了多机训练时显存泄漏的问题。"


def test_an_empty_or_missing_body_is_empty() -> None:
    assert clean_body("").is_empty
    assert clean_body(None).is_empty
    assert clean_body("\n\n   \n").is_empty


def test_a_request_to_cite_the_authors_paper_is_not_the_authors_description() -> None:
    for request in (
        "If you find the PR useful, please consider citing:",
        "If you find this implementation useful in your research, please consider\nciting:",
        "If you find our work helpful and useful, please cite our paper:",
    ):
        body = (
            f"Adds typed presets for the rollout correction.\n\n{request}\n\n```bibtex\n@misc{{a,\n}}\n```\n"
        )
        cleaned = clean_body(body)
        assert "cit" not in cleaned.prose.lower(), request
        assert "typed presets" in cleaned.prose
