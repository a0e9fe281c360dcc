"""Benchmark: every chosen method on every chosen data set, with the tests of Demšar (2006) and downloads."""

import streamlit as st

from rankviz.ui.benchmark_panel import benchmark_choice, benchmark_report, benchmark_run


st.title("Benchmark")
st.caption("Run a grid of methods × data sets under one protocol; the table of Cheng, Hühn & Hüllermeier "
           "(2009, Table 2), wins/ties/losses, the Friedman and Nemenyi tests and the critical-difference "
           "diagram of Demšar (2006).")
choice = benchmark_choice()
if choice is None:
    st.stop()
grid = benchmark_run(choice)
if grid is None:
    st.stop()
benchmark_report(*grid)
