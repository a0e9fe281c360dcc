"""Build the ``iris_nb`` sample: the iris data turned into label rankings.

Rows are the 150 iris flowers of scikit-learn's bundled copy
(``sklearn.datasets.load_iris``, no download); the features are the four
measurements in cm (sepal_length_cm, sepal_width_cm, petal_length_cm,
petal_width_cm); the labels are the three species setosa, versicolor,
virginica.  Each row's ranking of the species comes from a Gaussian naive
Bayes classifier trained on all 150 flowers: the species are ordered by
their predicted probability for that flower (procedure (A) of Cheng, Hühn &
Hüllermeier 2009, section 6.1; details in ``_nb_ranking.py``).

Run from the repository root: ``python scripts/sample_data/build_iris_nb.py``.
Deterministic (no randomness).
"""

from sklearn.datasets import load_iris

from _nb_ranking import build

if __name__ == "__main__":
    build(
        load_iris(),
        name="iris_nb",
        title="Iris: species ranked by naive Bayes",
        description=(
            "Each of the 150 rows is an iris flower described by four measurements "
            "in cm (sepal and petal length and width). The three labels are the "
            "species setosa, versicolor and virginica, ranked for each flower by the "
            "class probabilities of a Gaussian naive Bayes classifier trained on all "
            "150 flowers (1 = most probable), the procedure Cheng, Hühn and "
            "Hüllermeier (2009) used to turn classification data into label rankings. "
            "The true species is not a column; for {n_off} flowers naive Bayes ranks another "
            "species first."
        ),
        source=("Fisher's iris data (UCI Machine Learning Repository, CC BY 4.0) as "
                "bundled with scikit-learn (sklearn.datasets.load_iris, BSD-3-Clause); "
                "rankings computed by scripts/sample_data/build_iris_nb.py."),
    )
