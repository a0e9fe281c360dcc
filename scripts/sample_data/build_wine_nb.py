"""Build the ``wine_nb`` sample: the wine data turned into label rankings.

Rows are the 178 wines of scikit-learn's bundled copy of the UCI wine data
(``sklearn.datasets.load_wine``, no download); the features are 13 results
of a chemical analysis (alcohol, malic_acid, ..., proline; sklearn's names
in snake_case); the labels are the three cultivars, named class_0, class_1,
class_2 as in scikit-learn (the source does not name them).  Each row's
ranking of the cultivars comes from a Gaussian naive Bayes classifier trained
on all 178 wines: the cultivars are ordered by their predicted probability
for that wine (procedure (A) of Cheng, Hühn & Hüllermeier 2009, section
6.1; details in ``_nb_ranking.py``).

Run from the repository root: ``python scripts/sample_data/build_wine_nb.py``.
Deterministic (no randomness).
"""

from sklearn.datasets import load_wine

from _nb_ranking import build

if __name__ == "__main__":
    build(
        load_wine(),
        name="wine_nb",
        title="Wine: cultivars ranked by naive Bayes",
        description=(
            "Each of the 178 rows is an Italian wine described by 13 results of a "
            "chemical analysis (alcohol, malic acid, ash, ..., proline). The three "
            "labels are the grape cultivars class_0, class_1 and class_2, ranked for "
            "each wine by the class probabilities of a Gaussian naive Bayes classifier "
            "trained on all 178 wines (1 = most probable), the procedure Cheng, Hühn "
            "and Hüllermeier (2009) used to turn classification data into label "
            "rankings. The true cultivar is not a column; for {n_off} wines naive Bayes ranks "
            "another cultivar first."
        ),
        source=("Wine recognition data (Forina et al.; UCI Machine Learning Repository, "
                "CC BY 4.0) as bundled with scikit-learn (sklearn.datasets.load_wine, "
                "BSD-3-Clause); rankings computed by scripts/sample_data/build_wine_nb.py."),
    )
