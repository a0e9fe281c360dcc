"""Leaf size and γ together, by inner cross-validation (:class:`rankviz.RankingTreeCV`), with a button to use them."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
import streamlit as st

from ..label_ranking.bucket_order import is_partial
from ..label_ranking.metrics import MEASURES_BY_NAME
from ..safe_csv import safe_csv
from ..tree.ranking_tree_cv import RankingTreeCV, best_index
from .defaults import seed_defaults, user_set
from .long_run import background, short_hash
from .page_style import shade_rows
from .stale import rerun_requested, settings_facts, stale_notice
from .text import counted
from .tree_panel import GAMMA_GRID

if TYPE_CHECKING:
    from ..datasets.label_ranking import RankingDataset
    from .tree_panel import TreeSettings

#: The measures RankingTreeCV maximises (MEASURES_BY_NAME), by the name the page shows.
SCORINGS = {name: {"kendall_tau": "Kendall tau", "tau_x": "τx"}.get(name, name.upper()) for name in MEASURES_BY_NAME}
#: The leaf sizes tried first (the grid grows while its largest wins), with the page's own.
LEAF_GRID = (1, 2, 3, 5, 8, 13, 21)


def leaf_and_gamma_panel(dataset: RankingDataset, data_key: str, settings: TreeSettings, *, key: str = "tune_cv",
                         tree_key: str = "tree") -> None:
    """Choose the leaf size and γ together by inner cross-validation; a button sets the sidebar and slider.

    Parameters
    ----------
    dataset : RankingDataset
    data_key : str
        Identifies ``dataset``; results for other data or settings are not shown (a note says what changed).
    settings : TreeSettings
        The criterion, depth limit and ties of the search; its leaf size joins the grid.
    key : str, default="tune_cv"
        Prefix of the widget and session-state keys.
    tree_key : str, default="tree"
        Prefix of the tree settings' keys (``{tree_key}_min_leaf``, ``{tree_key}_gamma``) the button sets.
    """
    n = dataset.n_samples
    # τx for partial rankings (RankingTreeCV's "auto"), Kendall tau otherwise, until the reader picks
    seed_defaults({f"{key}_scoring": "tau_x" if is_partial(dataset.Y) else "kendall_tau"})
    cols = st.columns([2, 1, 1])
    scoring = cols[0].selectbox("Maximise", list(SCORINGS), format_func=SCORINGS.__getitem__, key=f"{key}_scoring",
                                persist_state="session", on_change=user_set, args=(f"{key}_scoring",),
                                help="The mean held-out value over the inner folds. Kendall tau is the measure of "
                                     "Cheng, Hühn & Hüllermeier (2009); τx scores predicted ties as Emond & Mason.")
    folds = int(cols[1].number_input("Folds", 2, max(2, min(n, 20)), min(5, n), key=f"{key}_folds",
                                     persist_state="session"))
    seed = int(cols[2].number_input("Shuffle seed", 0, 10_000, 0, key=f"{key}_seed", persist_state="session"))
    grid = tuple(sorted({*LEAF_GRID, settings.min_samples_leaf}))
    request = (data_key, settings.criterion, settings.max_depth, settings.tie_tolerance, scoring, folds, seed)
    facts = {"data set": dataset.name, "measure": SCORINGS[scoring], "folds": str(folds), "seed": str(seed),
             **{name: value for name, value in settings_facts(settings, gamma=False).items()
                if name != "minimum examples per leaf"}}
    state = st.session_state
    if st.button(f"Tune the leaf size and γ together ({counted(folds, 'fold')})", key=f"{key}_run",
                 icon=":material/tune:",
                 help=f"For each leaf size ({', '.join(map(str, grid))}, more while the largest wins) and each inner "
                      "fold one maximal tree is grown; every γ is read off its γ path (rankviz.RankingTreeCV).") \
            or rerun_requested(key):
        def compute(progress: object) -> RankingTreeCV:
            search = RankingTreeCV(criterion=settings.criterion, leaf_grid=grid, cv=folds, scoring=scoring,
                                   max_depth=settings.max_depth, tie_tolerance=settings.tie_tolerance,
                                   random_state=seed)
            return search.fit(dataset.X, pd.DataFrame(dataset.Y, columns=list(dataset.label_names)))

        result = background(compute, key=f"{key}_{short_hash(request)}", signature=request, cancel=False,
                            label="Searching leaf sizes and γ")
        if result is None:
            st.stop()
        state[f"{key}_result"] = (request, facts, result)
    stored = state.get(f"{key}_result")
    if stored is None:
        st.caption("Above, γ is tuned for the leaf size of the sidebar; here both are chosen at once.")
        return
    done_request, done_facts, search = stored
    if done_request != request:
        stale_notice("The leaf size and γ search", done_facts, facts, key=key,
                     button="Search again for the current settings")
        return
    _show_search(search, SCORINGS[done_request[4]], key, tree_key)


def _show_search(search: RankingTreeCV, measure: str, key: str, tree_key: str) -> None:
    leaf, gamma = search.best_params_["min_samples_leaf"], search.best_params_["gamma"]
    path = search.gamma_path_
    n_leaves = search.tree_.n_leaves
    shown = "∞" if np.isinf(gamma) else f"{gamma:.4f}"
    results = search.cv_results_
    n_folds = sum(name.startswith("split") for name in results)
    best = best_index(results)
    why = ("the best pair" if best == search.best_index_ else
           f"the least pruned tree within one standard error of the best pair's {results['mean_test_score'][best]:.3f}")
    st.markdown(f"**Chosen: at least {counted(int(leaf), 'example')} per leaf and γ = {shown}** (a tree of "
                f"{counted(n_leaves, 'leaf', 'leaves')}): mean held-out {measure} {search.best_score_:.3f} over "
                f"{counted(n_folds, 'fold')}, {why}; leaf sizes tried: {', '.join(map(str, search.leaf_grid_))}.")
    # The slider's values give the path's trees too: the chosen tree's smallest γ on the slider, or else
    # the best of them (the search's own γ may lie between two values of the slider, 0.001 apart, when
    # its tree's interval of γ is narrower)
    on_grid = search.score_at(GAMMA_GRID)
    same_on_grid = path.same_tree(gamma, GAMMA_GRID)
    if np.isfinite(on_grid).any():
        pick = int(np.argmax(same_on_grid)) if same_on_grid.any() else int(np.nanargmax(on_grid))
        on_slider = float(GAMMA_GRID[pick])
        same = bool(same_on_grid[pick])
        row = st.container(horizontal=True, vertical_alignment="center")
        if row.button(f"Use leaf size {leaf} and γ = {on_slider:.3f}", key=f"{key}_use", icon=":material/check:",
                      on_click=_use, args=(tree_key, leaf, on_slider),
                      help="Sets the sidebar's minimum of examples per leaf and the γ slider."):
            st.rerun()  # the whole page: the sidebar, the slider and the tree are outside this fragment
        row.caption("The same tree as the search's." if same else
                    f"The slider's best γ (mean {measure} {on_grid[pick]:.3f}): the search's γ = {shown} lies "
                    "between two of the slider's values, 0.001 apart.")
    table = pd.DataFrame({"leaf size": results["param_min_samples_leaf"], "γ": results["param_gamma"],
                          "leaves": results["n_leaves"], f"mean {measure}": results["mean_test_score"],
                          "sd over folds": results["std_test_score"], "rank": results["rank_test_score"],
                          "chosen": np.where(np.arange(len(results["param_gamma"])) == search.best_index_, "✓", "")})
    shown_rows = table.sort_values("rank").head(10)
    if search.best_index_ not in shown_rows.index:
        shown_rows = pd.concat([shown_rows, table.loc[[search.best_index_]]])
    st.dataframe(shade_rows(shown_rows, lambda row: row["chosen"] == "✓").format(
        {"γ": "{:.4f}", f"mean {measure}": "{:.3f}", "sd over folds": "{:.3f}"}), hide_index=True,
        key=f"{key}_table", height=38 + 35 * len(shown_rows))  # every row shown, the chosen one too
    st.download_button("Download every (leaf size, γ) tried (CSV)", safe_csv(table).encode(),
                       file_name="leaf_and_gamma_search.csv", mime="text/csv", key=f"{key}_csv", on_click="ignore",
                       icon=":material/download:")



def _use(tree_key: str, leaf: int, gamma: float) -> None:
    """The button's callback: before the widgets are drawn again, so their keys may be set."""
    st.session_state[f"{tree_key}_min_leaf"] = leaf
    user_set(f"{tree_key}_min_leaf")
    st.session_state[f"{tree_key}_gamma"] = gamma
