"""rankviz: ranking trees and label-ranking tools.

Importable without Streamlit; the app's widgets live in ``rankviz.ui``.
"""

from .label_ranking.baselines import DefaultRanker, KNNRanker, OrdinalDefault, OrdinalKNN
from .label_ranking.constraint_classification import ConstraintClassifier
from .datasets.label_ranking import RankingDataset, load_benchmark, load_csv, load_sample
from .experiments.cross_validation import cross_validate, summarize
from .label_ranking.iblr import IBLR
from .datasets.queries import QueryDataset, load_ltr_sample, load_query_csv, load_svmlight, make_ltr_dataset
from .label_ranking.incomplete import delete_labels
from .ltr.mpboost import MPBoost
from .tree.ordinal_tree import OrdinalTree
from .tree.ranking_tree import RankingTree

__all__ = ["ConstraintClassifier", "DefaultRanker", "IBLR", "KNNRanker", "MPBoost", "OrdinalDefault", "OrdinalKNN", "OrdinalTree", "QueryDataset",
           "RankingDataset", "RankingTree", "cross_validate", "delete_labels", "load_benchmark", "load_csv",
           "load_ltr_sample", "load_query_csv", "load_sample", "load_svmlight", "make_ltr_dataset", "summarize"]
