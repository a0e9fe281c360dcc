"""rankviz: ranking trees, label ranking and learning to rank, in the scikit-learn style.

The estimators follow scikit-learn's conventions (``fit`` / ``predict`` /
``score``, parameters in ``__init__``, fitted attributes ending in ``_``):

* :class:`RankingTree` -- ranking trees of Rebelo, Soares & Costa (2008) and
  the label ranking trees of Cheng, Hühn & Hüllermeier (2009);
  :class:`RankingTreeCV` chooses its leaf size and γ by cross-validation,
  :class:`RankingForest` bags randomised trees;
* :class:`OrdinalTree` -- the ranking-impurity trees of Xia, Zhang & Wang;
* :class:`IBLR`, :class:`KNNRanker`, :class:`DefaultRanker`,
  :class:`ConstraintClassifier` -- label rankers to compare with;
* :class:`MPBoost` -- magnitude-preserving boosting of Zhu et al. (2009).

The subpackages hold the rest: :mod:`rankviz.tree`,
:mod:`rankviz.ensemble`, :mod:`rankviz.label_ranking`, :mod:`rankviz.ordinal`, :mod:`rankviz.ltr`,
:mod:`rankviz.datasets`, :mod:`rankviz.experiments`, :mod:`rankviz.viz` and
:mod:`rankviz.utils` (:func:`show_versions` for bug reports).
Importing rankviz never imports Streamlit or plotly; the app's widgets live
in :mod:`rankviz.ui`.
"""

from .config import config_context, default_max_memory, get_config, set_config
from .datasets.label_ranking import RankingDataset, load_benchmark, load_csv
from .datasets.queries import QueryDataset, load_query_csv
from .datasets.samples import load_ltr_sample, load_sample
from .datasets.svmlight import load_svmlight
from .ensemble import RankingForest
from .exceptions import DataError, MemoryLimitError
from .experiments.cross_validation import compare_methods, cross_validate, summarize
from .label_ranking.baselines import DefaultRanker, KNNRanker
from .label_ranking.constraint_classification import ConstraintClassifier
from .label_ranking.iblr import IBLR
from .label_ranking.incomplete import delete_labels
from .ltr.mpboost import MPBoost
from .ltr.synthetic import make_ltr_dataset
from .ordinal.baselines import OrdinalDefault, OrdinalKNN
from .tree.ordinal_tree import OrdinalTree
from .tree.ranking_tree import RankingTree
from .tree.ranking_tree_cv import RankingTreeCV
from .utils import show_versions

__version__ = "0.1.0"

__all__ = ["ConstraintClassifier", "DataError", "DefaultRanker", "IBLR", "KNNRanker", "MPBoost", "MemoryLimitError",
           "OrdinalDefault", "OrdinalKNN", "OrdinalTree", "QueryDataset", "RankingDataset", "RankingForest", "RankingTree",
           "RankingTreeCV",
           "compare_methods", "config_context", "cross_validate", "default_max_memory", "delete_labels",
           "get_config", "load_benchmark", "load_csv", "load_ltr_sample", "load_query_csv", "load_sample",
           "load_svmlight", "make_ltr_dataset", "set_config", "show_versions", "summarize"]
