"""The Monte Carlo panels (Xia et al. 2006, Table I, Figs. 2–3), run headless on a tiny page with AppTest."""

import base64
import json

import numpy as np
import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

import rankviz.ui.monte_carlo_panel as panel
from rankviz.experiments.monte_carlo import TREE_METHODS, SyntheticSource, ordinal_methods, run_trials

RI, GINI = TREE_METHODS["ranking_impurity"], TREE_METHODS["gini"]

SOURCES = {
    "synthetic": "SyntheticSource(n_train=200, n_test=200)",
    "holdout": "HoldoutSource(*_named(), levels=LEVELS, test_fraction=0.3)",
    "large": "SyntheticSource(n_train=200_000, n_test=5_000)",
}

PAGE = """\
import numpy as np
import streamlit as st
from rankviz.experiments.monte_carlo import HoldoutSource, SyntheticSource
from rankviz.ordinal.synthetic import make_ordinal_square
from rankviz.ui.monte_carlo_panel import monte_carlo_panel, noise_panel

LEVELS = ["very low", "low", "mid", "high", "very high"]


def _named():
    X, y = make_ordinal_square(300, seed=1)
    return X, np.array(LEVELS, dtype=object)[y - 1]


source = {source}
{panel}(source, "{source_name}")
"""


def plotly_array(values):
    """Plotly 7 stores numeric arrays as ``{"dtype", "bdata"}`` (base64)."""
    if isinstance(values, dict):
        return np.frombuffer(base64.b64decode(values["bdata"]), dtype=values["dtype"])
    return np.asarray(values)


def make_app(tmp_path, source="synthetic", panel_name="monte_carlo_panel"):
    page = tmp_path / f"{panel_name}_{source}.py"
    page.write_text(PAGE.format(source=SOURCES[source], panel=panel_name, source_name=source))
    at = AppTest.from_file(str(page), default_timeout=60)
    at.run()
    assert not at.exception
    return at


def chart(at):
    return json.loads(at.get("plotly_chart")[0].proto.spec)


def downloads(at):
    return [d.proto.label for d in at.get("download_button")]


def texts(elements):
    return " ".join(e.value for e in elements)


def test_monte_carlo_panel_runs_every_method_and_draws_the_depth_curves(tmp_path):
    at = make_app(tmp_path)
    assert "Press **Run**" in texts(at.info)
    at.number_input(key="mc_trials").set_value(3)
    at.number_input(key="mc_depth").set_value(4)
    at.radio(key="mc_selection").set_value("cv")
    at.number_input(key="mc_k").set_value(3)
    at.number_input(key="mc_seed").set_value(5)
    at.button(key="mc_run").click().run(timeout=60)
    assert not at.exception
    assert not at.warning  # complete, and for these settings
    table = at.dataframe[0].value
    assert table["method"].tolist() == [RI, GINI, "KNN (k=3)", "Default (median)"]
    assert (table["trials"] == 3).all()
    assert table["rank loss"].str.fullmatch(r"\d\.\d{3} ± \d\.\d{3}").all()
    assert table.loc[table["method"] == "Default (median)", "depth"].item() == "—"

    # The table agrees with the library on the same settings.
    methods = ordinal_methods(max_depth=4, n_neighbors=3)
    expected = [r for trial in run_trials(SyntheticSource(n_train=200, n_test=200), methods, 3,
                                          seed=5, depth_selection="cv") for r in trial]
    ri = [r["loss"] for r in expected if r["method"] == RI and r["final"]]
    assert table.loc[table["method"] == RI, "mean"].item() == pytest.approx(np.mean(ri))

    spec = chart(at)
    names = [t["name"] for t in spec["data"]]
    assert names == [f"{RI} tree", f"{GINI} tree", "KNN (k=3)", "Default (median)"]
    assert plotly_array(spec["data"][0]["x"]).tolist() == [0, 1, 2, 3, 4]
    assert len(plotly_array(spec["data"][0]["error_y"]["array"])) == 5
    assert spec["layout"]["xaxis"]["title"]["text"] == "tree depth"
    assert "rank loss" in spec["layout"]["yaxis"]["title"]["text"]
    assert "0.16" in texts(at.caption)  # the published expectation
    assert downloads(at) == ["Download per-trial records (CSV)"]

    # Other settings: the results stay, flagged as earlier ones.
    at.number_input(key="mc_trials").set_value(4).run()
    assert "earlier settings" in texts(at.warning)
    assert (at.dataframe[0].value["trials"] == 3).all()


def test_monte_carlo_panel_without_knn_on_held_out_named_levels(tmp_path):
    at = make_app(tmp_path, "holdout")
    assert "210 training rows and 90 test rows" in texts(at.caption)
    at.number_input(key="mc_trials").set_value(2)
    at.number_input(key="mc_depth").set_value(3)
    at.checkbox(key="mc_knn").uncheck()
    at.button(key="mc_run").click().run(timeout=60)
    assert not at.exception and not at.error
    table = at.dataframe[0].value
    assert table["method"].tolist() == [RI, GINI, "Default (median)"]
    assert (table["trials"] == 2).all()
    assert table.loc[table["method"] == RI, "depth"].item() == "3"
    assert [t["name"] for t in chart(at)["data"]][-1] == "Default (median)"
    assert downloads(at)


def test_stop_keeps_the_finished_trials(tmp_path, monkeypatch):
    # Pressing Stop reruns the script: Streamlit raises a rerun in the running
    # one at its next call. st.rerun() after two trials does the same headless.
    def interrupted(*args, **kwargs):
        for done, records in enumerate(run_trials(*args, **kwargs), start=1):
            yield records
            if done == 2 and not st.session_state.get("stopped"):
                st.session_state["stopped"] = True
                st.rerun()

    monkeypatch.setattr(panel, "run_trials", interrupted)
    at = make_app(tmp_path)
    at.number_input(key="mc_trials").set_value(5)
    at.number_input(key="mc_depth").set_value(3)
    at.button(key="mc_run").click().run(timeout=60)
    assert not at.exception
    assert "Stopped after 2 of 5 trials" in texts(at.warning)
    assert "earlier settings" not in texts(at.warning)
    assert (at.dataframe[0].value["trials"] == 2).all()
    assert at.get("plotly_chart")


def test_a_large_run_is_estimated_before_it_starts(tmp_path):
    at = make_app(tmp_path, "large")
    warning = texts(at.warning)
    assert "roughly" in warning and "mostly KNN" in warning
    at.checkbox(key="mc_knn").uncheck().run()
    assert not at.warning  # two trees alone: under half a minute
    # The estimate is linear in trials, and KNN's share in test rows (every pair compared).
    one, two = (panel.estimate_seconds(200_000, 5_000, n) for n in (10, 20))
    assert two == pytest.approx(2 * one)
    knn_share = [panel.estimate_seconds(200_000, n, 20) - panel.estimate_seconds(200_000, n, 20, knn=False)
                 for n in (5_000, 10_000)]
    assert knn_share[1] == pytest.approx(2 * knn_share[0])


def test_noise_panel_draws_one_panel_per_training_size(tmp_path):
    at = make_app(tmp_path, panel_name="noise_panel")
    assert at.radio(key="noise_selection").value == "cv"
    assert at.multiselect(key="noise_sizes").value == [100, 1000]
    at.multiselect(key="noise_levels").set_value([0.0, 0.3])
    at.multiselect(key="noise_sizes").set_value([100, 1000])
    at.number_input(key="noise_trials").set_value(2)
    at.number_input(key="noise_depth").set_value(4)
    at.radio(key="noise_selection").set_value("fixed")
    at.number_input(key="noise_seed").set_value(1)
    at.button(key="noise_run").click().run(timeout=60)
    assert not at.exception and not at.warning
    table = at.dataframe[0].value
    assert table[["training size", "σ"]].values.tolist() == [[100, 0.0], [100, 0.3],
                                                            [1000, 0.0], [1000, 0.3]]
    assert list(table.columns[2:]) == [RI, GINI, "trials"]
    assert (table["trials"] == 2).all()
    spec = chart(at)
    assert [t["name"] for t in spec["data"]] == [f"{RI} tree", f"{GINI} tree"] * 2
    assert [t.get("xaxis", "x") for t in spec["data"]] == ["x", "x", "x2", "x2"]
    assert [t["line"]["dash"] for t in spec["data"]] == ["solid", "dashdot"] * 2
    assert plotly_array(spec["data"][0]["x"]).tolist() == [0.0, 0.3]
    assert len(plotly_array(spec["data"][3]["error_y"]["array"])) == 2
    assert spec["layout"]["yaxis"]["title"]["text"] == "mean absolute rank loss (levels)"
    assert spec["layout"]["xaxis2"]["title"]["text"] == "label noise level σ"
    assert downloads(at) == ["Download per-trial records (CSV)"]


def test_noise_panel_on_held_out_data_uses_its_own_size(tmp_path):
    at = make_app(tmp_path, "holdout", "noise_panel")
    assert [m.key for m in at.multiselect] == ["noise_levels"]  # no training sizes to pick
    assert "this data's own, 210 rows" in texts(at.caption)
    at.multiselect(key="noise_levels").set_value([0.1])
    at.number_input(key="noise_trials").set_value(2)
    at.number_input(key="noise_depth").set_value(3)
    at.button(key="noise_run").click().run(timeout=60)
    assert not at.exception and not at.error
    table = at.dataframe[0].value
    assert table[["training size", "σ"]].values.tolist() == [[210, 0.1]]
    assert len(chart(at)["data"]) == 2


def test_noise_panel_needs_a_noise_level(tmp_path):
    at = make_app(tmp_path, panel_name="noise_panel")
    at.multiselect(key="noise_levels").set_value([]).run()
    assert "at least one noise level" in texts(at.info)
    assert at.button(key="noise_run").disabled


def test_a_stopped_noise_run_covers_every_cell(tmp_path, monkeypatch):
    real = panel.noise_trials

    def interrupted(*args, **kwargs):  # one generator per (size, noise) cell
        for records in real(*args, **kwargs):
            units = st.session_state["units"] = st.session_state.get("units", 0) + 1
            if units == 6 and not st.session_state.get("stopped"):
                st.session_state["stopped"] = True
                st.rerun()  # as Stop would, before the sixth unit is stored
            yield records

    monkeypatch.setattr(panel, "noise_trials", interrupted)
    at = make_app(tmp_path, panel_name="noise_panel")
    at.multiselect(key="noise_levels").set_value([0.0, 0.4])
    at.multiselect(key="noise_sizes").set_value([100])
    at.number_input(key="noise_trials").set_value(4)
    at.number_input(key="noise_depth").set_value(3)
    at.button(key="noise_run").click().run(timeout=60)
    assert not at.exception
    assert "Stopped after 5 of 8 runs" in texts(at.warning)
    # Round by round: trials 1–2 of both cells, then the third trial of σ = 0.
    assert at.dataframe[0].value["trials"].tolist() == [3, 2]
