"""rankviz: ranking trees and label-ranking tools.

Importable without Streamlit; the app's widgets live in ``rankviz.ui``.
"""

from .ranking_tree import RankingTree

__all__ = ["RankingTree"]
