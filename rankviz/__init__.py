"""rankviz: ranking trees and label-ranking tools.

Importable without Streamlit; the app's widgets live in ``rankviz.ui``.
"""

from .baselines import DefaultRanker, KNNRanker, OrdinalDefault, OrdinalKNN
from .constraint_classification import ConstraintClassifier
from .data import RankingDataset, load_benchmark, load_csv, load_sample
from .evaluation import cross_validate, summarize
from .iblr import IBLR
from .ltr_data import QueryDataset, load_ltr_sample, load_query_csv, load_svmlight, make_ltr_dataset
from .incomplete import delete_labels
from .mpboost import MPBoost
from .ordinal_tree import OrdinalTree
from .ranking_tree import RankingTree

__all__ = ["ConstraintClassifier", "DefaultRanker", "IBLR", "KNNRanker", "MPBoost", "OrdinalDefault", "OrdinalKNN", "OrdinalTree", "QueryDataset",
           "RankingDataset", "RankingTree", "cross_validate", "delete_labels", "load_benchmark", "load_csv",
           "load_ltr_sample", "load_query_csv", "load_sample", "load_svmlight", "make_ltr_dataset", "summarize"]
