"""Five more repos shaped unlike verl and unlike the other fixtures, written before any question about
them, for questions by class on a clock in October:

- caddyserver/caddy: a Go server, conventional commits with scopes (`fix(reverseproxy): …`), short
  English bodies, `.go` paths under modules/.
- tauri-apps/tauri: a Rust workspace, conventional commits, CamelCase type names in titles
  (`TrayIcon`, `AssetResolver`), paths under crates/.
- TanStack/query: a TypeScript monorepo with packages/*, conventional commits, camelCase hooks
  (`useInfiniteQuery`) and CamelCase files (`InfiniteQueryPanel.tsx`).
- PaddlePaddle/PaddleOCR: Chinese titles and Chinese bodies, no template, snake_case module names.
- huggingface/transformers: plain English titles whose bodies are only an issue link ("Fixes #34060"),
  names written both ways (`RMSNorm` and `rms_norm`, `FlashAttention-2` and `flash_attn`).

The clock is Tuesday 2026-10-20 10:00 in Asia/Shanghai (2026-W43, Monday 10-19 to Sunday 10-25; last
week 10-12 to 10-18; the week before 10-05 to 10-11); PRs go back to August; each repo has a PR merged
after the clock, which no answer at the clock may cite.
"""

from __future__ import annotations

from datetime import datetime

from chatbot.clock import FixedClock
from chatbot.store.db import Database
from tests.qa.other_repos import SHANGHAI, Written, store_written

NOW = datetime(2026, 10, 20, 10, 0, tzinfo=SHANGHAI)
CADDY = "caddyserver/caddy"
TAURI = "tauri-apps/tauri"
QUERY = "TanStack/query"
OCR = "PaddlePaddle/PaddleOCR"
HF = "huggingface/transformers"
REPOS = (CADDY, TAURI, QUERY, OCR, HF)


def clock() -> FixedClock:
    return FixedClock(NOW)


def at(month: int, day: int, hour: int = 12) -> datetime:
    return datetime(2026, month, day, hour, tzinfo=SHANGHAI)


def pr(repo: str, number: int, merged: datetime, author: str, title: str, body: str, *files: str) -> Written:
    return Written(repo, number, merged, author, title, body, files)


PRS: tuple[Written, ...] = (
    # caddyserver/caddy --------------------------------------------------------------------------------
    pr(CADDY, 6601, at(8, 12), "francislavoie", "fix(reverseproxy): close idle connections on config reload",
       "Idle upstream connections leaked on every reload; the old transport is now closed.",
       "modules/caddyhttp/reverseproxy/httptransport.go"),
    pr(CADDY, 6610, at(8, 25), "mholt", "feat(caddytls): support Encrypted ClientHello (ECH)",
       "Adds the `ech` option to the TLS app; keys are rotated every 24h.", "modules/caddytls/ech.go",
       "modules/caddytls/tls.go"),
    pr(CADDY, 6622, at(9, 3), "dependabot", "chore(deps): bump golang.org/x/net to 0.30.0",
       "Bumps golang.org/x/net from 0.28.0 to 0.30.0.", "go.mod", "go.sum"),
    pr(CADDY, 6630, at(9, 15), "WeidiDeng", "perf(encode): reuse zstd encoders through a sync.Pool",
       "Allocations per compressed response drop from 12 to 2.", "modules/caddyhttp/encode/zstd/zstd.go"),
    pr(CADDY, 6641, at(9, 24), "mohammed90", "docs: document the file_server browse template",
       "Lists the fields a custom browse template can use.", "modules/caddyhttp/fileserver/browse.html",
       "README.md"),
    pr(CADDY, 6650, at(10, 5), "francislavoie", "fix(caddyfile): panic on an empty heredoc",
       "The lexer read past the end of the token when a heredoc had no lines.",
       "caddyconfig/caddyfile/lexer.go", "caddyconfig/caddyfile/lexer_test.go"),
    pr(CADDY, 6655, at(10, 8), "mholt", "feat(logging)!: remove the deprecated skip_log directive",
       "BREAKING CHANGE: `skip_log` is gone; Caddyfiles that still use it fail to adapt. Use `log_skip`.",
       "modules/caddyhttp/logging.go"),
    pr(CADDY, 6661, at(10, 13), "mholt", "fix(reverseproxy): retry on dial timeout within lb_try_duration",
       "A dial timeout was returned to the client even when lb_try_duration allowed another upstream.",
       "modules/caddyhttp/reverseproxy/reverseproxy.go"),
    pr(CADDY, 6664, at(10, 14), "WeidiDeng", "feat(reverseproxy): active health checks for gRPC upstreams",
       "Uses grpc.health.v1 when `health_uri` starts with grpc://.",
       "modules/caddyhttp/reverseproxy/healthchecks.go"),
    pr(CADDY, 6668, at(10, 16), "mohammed90", "test(caddytls): cover the ACME issuer with ZeroSSL EAB",
       "Runs against a local Pebble server.", "modules/caddytls/acmeissuer_test.go"),
    pr(CADDY, 6671, at(10, 19), "francislavoie", "refactor(admin): split the admin API handler into files",
       "No behaviour change.", "admin.go", "admin_api.go"),
    pr(CADDY, 6675, at(10, 20, 9), "WeidiDeng", "fix(http3): memory leak in QUIC stream handling",
       "Streams that the client reset were never removed from the map.", "modules/caddyhttp/http3.go"),
    pr(CADDY, 6680, at(10, 21), "mholt", "fix(caddytls): renew certificates before OCSP expiry",
       "Merged after the clock's time.", "modules/caddytls/certmanager.go"),
    # tauri-apps/tauri ---------------------------------------------------------------------------------
    pr(TAURI, 11001, at(8, 18), "amrbashir", "feat(core): add WebviewWindow::set_background_color",
       "Sets the background before the page loads, which removes the white flash on dark themes.",
       "crates/tauri/src/webview/webview_window.rs"),
    pr(TAURI, 11012, at(9, 2), "lucasfernog", "fix(cli): `tauri dev` hangs on Windows when the port is taken",
       "The dev server now picks the next free port and prints it.", "crates/tauri-cli/src/dev.rs"),
    pr(TAURI, 11020, at(9, 10), "FabianLars", "feat(bundler): sign AppImage bundles with GPG",
       "Set TAURI_SIGNING_GPG_KEY to sign the AppImage during `tauri build`.",
       "crates/tauri-bundler/src/bundle/linux/appimage.rs"),
    pr(TAURI, 11033, at(9, 28), "amrbashir", "fix(ipc): deserialize large payloads without copying",
       "Fixes #10998", "crates/tauri/src/ipc/protocol.rs"),
    pr(TAURI, 11040, at(10, 6), "renovate", "chore(deps): update rust crate windows to 0.58",
       "Updates windows from 0.56 to 0.58.", "Cargo.toml", "Cargo.lock"),
    pr(TAURI, 11046, at(10, 9), "lucasfernog", "feat(android)!: require minSdkVersion 24",
       "BREAKING CHANGE: apps targeting Android 6 no longer build; raise minSdkVersion to 24.",
       "crates/tauri-cli/templates/mobile/android/app/build.gradle.kts"),
    pr(TAURI, 11052, at(10, 12), "amrbashir", "fix(macos): TrayIcon menu not shown on Sonoma",
       "The menu was attached before the status item existed.", "crates/tauri/src/tray/mod.rs"),
    pr(TAURI, 11058, at(10, 15), "FabianLars", "perf(core): cache AssetResolver lookups",
       "Each asset was decompressed on every request; now once per process.",
       "crates/tauri/src/manager/asset_resolver.rs"),
    pr(TAURI, 11061, at(10, 17), "simonhyll", "docs(plugin): explain how to write a mobile plugin in Kotlin",
       "A step-by-step guide with a sample plugin.", "crates/tauri/mobile/android-codegen/README.md"),
    pr(TAURI, 11066, at(10, 19), "lucasfernog", "fix(updater): verify the signature before writing the update",
       "The update was written to disk before its signature was checked, so a bad download replaced the "
       "binary.", "crates/tauri/src/updater/mod.rs"),
    pr(TAURI, 11070, at(10, 22), "amrbashir", "feat(core): add Window::set_badge_count",
       "Merged after the clock's time.", "crates/tauri/src/window/mod.rs"),
    # TanStack/query -----------------------------------------------------------------------------------
    pr(QUERY, 8101, at(8, 20), "TkDodo", "fix(query-core): keep previous data while refetching with placeholderData",
       "placeholderData: keepPreviousData flashed undefined for one render.",
       "packages/query-core/src/queryObserver.ts"),
    pr(QUERY, 8110, at(9, 4), "TkDodo", "feat(react-query): add useSuspenseQueries",
       "Suspends until every query in the list has data.", "packages/react-query/src/useSuspenseQueries.ts"),
    pr(QUERY, 8118, at(9, 17), "manudeli", "docs: migrate the React examples to Vite",
       "create-react-app is deprecated.", "examples/react/basic/vite.config.ts",
       "docs/framework/react/examples.md"),
    pr(QUERY, 8125, at(9, 30), "DamianOsipiuk", "fix(vue-query): reactivity lost for computed query keys",
       "A computed key was unwrapped once at setup.", "packages/vue-query/src/useBaseQuery.ts"),
    pr(QUERY, 8131, at(10, 6), "TkDodo", "perf(query-core): stop re-creating QueryCache listeners",
       "Every subscribe created a new listener set.", "packages/query-core/src/queryCache.ts"),
    pr(QUERY, 8137, at(10, 10), "ardeora", "feat(devtools): show the pages of an infinite query",
       "A new panel lists each page and its param.", "packages/query-devtools/src/InfiniteQueryPanel.tsx"),
    pr(QUERY, 8142, at(10, 13), "ardeora", "fix(solid-query): SSR hydration mismatch",
       "The server rendered the loading state, the client the data.",
       "packages/solid-query/src/createBaseQuery.ts"),
    pr(QUERY, 8146, at(10, 15), "renovate", "chore: bump TypeScript to 5.6",
       "Updates typescript in the workspace.", "package.json", "pnpm-lock.yaml"),
    pr(QUERY, 8150, at(10, 16), "TkDodo", "refactor(query-core)!: remove the deprecated isLoading alias",
       "BREAKING CHANGE: use isPending instead of isLoading.", "packages/query-core/src/types.ts"),
    pr(QUERY, 8155, at(10, 19), "manudeli", "test(react-query): cover useInfiniteQuery with maxPages",
       "Adds cases for fetching backwards.", "packages/react-query/src/__tests__/useInfiniteQuery.test.tsx"),
    pr(QUERY, 8160, at(10, 23), "TkDodo", "fix(query-core): cancel refetch on unmount",
       "Merged after the clock's time.", "packages/query-core/src/query.ts"),
    # PaddlePaddle/PaddleOCR ---------------------------------------------------------------------------
    pr(OCR, 14001, at(8, 14), "GreatV", "修复 PP-OCRv5 在 CPU 上推理结果不一致的问题",
       "mkldnn 的缓存没有清空，连续推理时结果会变；现在每次推理前重置缓存。", "paddleocr/_pipelines/ocr.py"),
    pr(OCR, 14012, at(8, 28), "Topdu", "新增日语识别模型",
       "提供 japan_PP-OCRv5_rec 预训练模型和配置。", "configs/rec/PP-OCRv5/japan_PP-OCRv5_rec.yml"),
    pr(OCR, 14020, at(9, 9), "jzhang533", "更新安装文档，补充 Windows 下的 GPU 配置",
       "写明 CUDA 12 和 cuDNN 的版本对应关系。", "docs/quick_start.md"),
    pr(OCR, 14031, at(9, 22), "Topdu", "表格识别支持合并单元格",
       "输出的 HTML 里带 rowspan 和 colspan。", "ppstructure/table/table_master_match.py"),
    pr(OCR, 14040, at(10, 3), "GreatV", "修复 paddle2onnx 导出后精度下降",
       "导出时 opset 版本太低，部分算子被拆开导致误差累积，改为 opset 14。", "tools/export_onnx.py"),
    pr(OCR, 14046, at(10, 9), "jzhang533", "新增 FAQ 文档和英文版使用教程",
       "整理了 issue 里常见的 20 个问题。", "docs/FAQ.md", "docs/tutorial_en.md"),
    pr(OCR, 14052, at(10, 13), "GreatV", "删除已废弃的 PPOCRLabel 旧版标注格式",
       "不再兼容旧版本的标注格式，升级前请先用 tools/convert_label.py 转换。", "PPOCRLabel/libs/label_file.py",
       "tools/convert_label.py"),
    pr(OCR, 14058, at(10, 15), "Topdu", "优化检测模型的显存占用",
       "batch 推理时显存峰值从 10G 降到 6G。", "ppocr/modeling/heads/det_db_head.py"),
    pr(OCR, 14063, at(10, 16), "jzhang533", "增加 text_detector 的单元测试",
       "覆盖空图片和超大图片两种情况。", "tests/test_text_detector.py"),
    pr(OCR, 14067, at(10, 19), "GreatV", "升级 paddlepaddle 依赖到 3.0",
       "requirements 中的下限提高到 3.0。", "requirements.txt"),
    pr(OCR, 14072, at(10, 24), "Topdu", "修复竖排文字识别顺序错误",
       "Merged after the clock's time.", "ppocr/postprocess/rec_postprocess.py"),
    # huggingface/transformers -------------------------------------------------------------------------
    pr(HF, 34001, at(8, 19), "ArthurZucker", "Add FlashAttention-2 support for Gemma 3",
       "Fixes #33870", "src/transformers/models/gemma3/modeling_gemma3.py"),
    pr(HF, 34015, at(9, 5), "Cyrilvallez", "Fix RMSNorm eps in Qwen3",
       "Fixes #34002", "src/transformers/models/qwen3/modeling_qwen3.py"),
    pr(HF, 34022, at(9, 16), "ArthurZucker", "Use flash_attn varlen kernels for packed sequences",
       "Closes #33990", "src/transformers/modeling_flash_attention_utils.py"),
    pr(HF, 34030, at(9, 29), "itazap", "Fix tokenizer offset mapping for Llama",
       "Fixes #34011", "src/transformers/models/llama/tokenization_llama_fast.py"),
    pr(HF, 34041, at(10, 7), "gante", "Remove the deprecated use_auth_token argument",
       "Part of #30000", "src/transformers/utils/hub.py"),
    pr(HF, 34048, at(10, 12), "gante", "Speed up generate with a static KV cache",
       "Fixes #33001", "src/transformers/generation/utils.py", "src/transformers/cache_utils.py"),
    pr(HF, 34053, at(10, 14), "Wauplin", "Support offline loading of local model directories",
       "Fixes #34020", "src/transformers/utils/hub.py"),
    pr(HF, 34057, at(10, 15), "SunMarc", "Fix OOM when saving sharded checkpoints",
       "Fixes #33999", "src/transformers/modeling_utils.py"),
    pr(HF, 34062, at(10, 16), "stevhliu", "Add a guide to quantization with bitsandbytes",
       "Fixes #33500", "docs/source/en/quantization/bitsandbytes.md"),
    pr(HF, 34066, at(10, 19), "Cyrilvallez", "Fix rms_norm dtype under autocast in Llama",
       "Fixes #34060", "src/transformers/models/llama/modeling_llama.py"),
    pr(HF, 34070, at(10, 21), "gante", "Fix beam search with assisted decoding",
       "Merged after the clock's time.", "src/transformers/generation/utils.py"),
)  # fmt: skip

BY_KEY = {(p.repo, p.number): p for p in PRS}


def seed(db: Database) -> None:
    store_written(db, PRS, NOW)
