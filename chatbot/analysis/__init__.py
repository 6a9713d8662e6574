"""PR analysis: the neutral analysis types, the offline heuristic analyzer and per-repo module maps."""

from chatbot.analysis.heuristic import HeuristicAnalyzer, Language
from chatbot.analysis.modules import ModuleMap, ModuleMapError, load_module_map
from chatbot.analysis.types import Analysis, ChangeType, Risk, RiskCategory, Severity, Verdict

__all__ = [
    "Analysis",
    "ChangeType",
    "HeuristicAnalyzer",
    "Language",
    "ModuleMap",
    "ModuleMapError",
    "Risk",
    "RiskCategory",
    "Severity",
    "Verdict",
    "load_module_map",
]
