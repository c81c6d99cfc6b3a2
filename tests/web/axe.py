"""axe-core, the accessibility engine, fetched once from the npm registry.

The tarball is pinned by version and by the registry's sha512 integrity, so
a changed or corrupted download is refused; the script is kept in build/
and injected into pages by Playwright.
"""

from __future__ import annotations

import base64
import hashlib
import io
import tarfile
import urllib.request
from pathlib import Path

VERSION = "4.14.1"
TARBALL = f"https://registry.npmjs.org/axe-core/-/axe-core-{VERSION}.tgz"
INTEGRITY = "sha512-FHfa+lmNjQZfJz1q8wKqIDwC6DExcHt/pkjNQb09a3NPjCKg2rhu5qb2S4r76ASyFNNtuFooJpZe37OgudVGtQ=="
CACHE = Path(__file__).resolve().parents[2] / "build" / f"axe-core-{VERSION}.min.js"


def axe_script() -> str:
    """The text of axe.min.js, downloading and checking it on first use."""
    if not CACHE.exists():
        with urllib.request.urlopen(TARBALL, timeout=60) as response:
            packed = response.read()
        digest = "sha512-" + base64.b64encode(hashlib.sha512(packed).digest()).decode()
        if digest != INTEGRITY:
            raise RuntimeError(f"axe-core {VERSION} from {TARBALL} does not match its integrity {INTEGRITY}")
        with tarfile.open(fileobj=io.BytesIO(packed)) as archive:
            script = archive.extractfile("package/axe.min.js").read()
        CACHE.parent.mkdir(parents=True, exist_ok=True)
        CACHE.write_bytes(script)
    return CACHE.read_text(encoding="utf-8")


def serious_violations(page) -> list[str]:
    """Run axe on the page (WCAG 2.x A and AA rules); describe each serious or critical violation."""
    page.add_script_tag(content=axe_script())
    result = page.evaluate(
        "() => axe.run(document, {runOnly: {type: 'tag', values: "
        "['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']}})")
    return [f"{v['id']} ({v['impact']}): {v['help']} at "
            + "; ".join(" ".join(node["target"]) for node in v["nodes"][:5])
            for v in result["violations"] if v["impact"] in ("serious", "critical")]
