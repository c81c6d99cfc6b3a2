"""The study report: measures per cell with their intervals, and figures.

``write_report(out)`` reads a results folder, measures every cell and
writes ``report.html`` (``report.ja.html`` in Japanese): one page with the
study's set-up, a table per measure and the figures inline, so the file
can be mailed or opened anywhere. Each figure is also saved as PNG and SVG
beside it, and every number as ``measures.json`` for scripts.
"""

from __future__ import annotations

import html
import io
import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tileworks
from tileworks.core.i18n import N_, _, pgettext
from tileworks.core.i18n import language as speaking
from tileworks.lab import measures as m
from tileworks.lab.compare import Comparison, compare_cells
from tileworks.lab.curves import RESPONSES, response_curves
from tileworks.lab.run import load_rows
from tileworks.lab.study import Cell, StudyError, study_from_description

#: the measures' names in tables and headings, by study key
MEASURE_NAMES = {
    "balance": N_("Balance: win rate by seat"),
    "agents": N_("Win rate by agent"),
    "scores": N_("Scores: mean and spread"),
    "margin": N_("Winning margin"),
    "duration": N_("Duration: game length"),
    "drawishness": N_("Drawishness: shared wins"),
    "tiebreak": N_("Ties on the top score and the tie-break"),
    "lead_change": N_("Lead change"),
    "comeback": N_("Comebacks"),
    "catch_up": N_("Catch-up: the weaker agent's win rate"),
    "complexity": N_("Complexity: choices, forced moves and how long the outcome stays open"),
}
MEASURE_NOTES = {
    "complexity": N_("Per game, then the mean over games with its 95% t interval: legal moves a decision (branching "
                     "factor), the share of decisions with one legal move (forced), decisions a turn, the share of "
                     "turns after which the eventual winner was not the sole leader (uncertainty), and how far behind "
                     "the leader the winner was on average, as a share of its final score (drama). The last two need "
                     "scores during play."),
    "balance": N_("Share of wins by seat in turn order, seat 1 being the seat that moved first (a shared win "
                  "counts 1/k), 95% Wilson intervals; the first seat's "
                  "advantage over a fair share 1/n; Pearson's chi-square test of equal seats (a small p "
                  "means a seat advantage); Ludii's balance score 1 − (best − worst seat rate)."),
    "agents": N_("Each agent's share of the wins over the seats it held, 95% Wilson intervals."),
    "scores": N_("Mean final score by seat, with its 95% t interval and the standard deviation."),
    "margin": N_("Games with one winner: the winner's score minus the best other score (mean, 95% t interval)."),
    "duration": N_("Decisions and turns a game (a turn is one seat's run of decisions), mean with 95% t interval."),
    "drawishness": N_("Games won by two or more seats (a draw included), 95% Wilson interval."),
    "tiebreak": N_("Games whose top score was shared, and games where the tie-break then chose fewer winners."),
    "lead_change": N_("How often the sole leader changes in a game, and as a share of its turns (Browne)."),
    "comeback": N_("Games with one winner in which the winner was alone in last place two thirds of the way through."),
    "catch_up": N_("The weaker agent's share of the wins in each cell, and its change from the line-up's first cell "
                   "(Newcombe's 95% interval for a difference of rates)."),
}


#: the compared quantities' names (see tileworks.lab.compare)
QUANTITY_NAMES = {name: name for name in (
    N_("first seat's win rate"), N_("decisions a game"), N_("mean score"), N_("winning margin"),
    N_("shared-win rate"), N_("top score shared"), N_("lead changes a game"), N_("comeback rate"),
    N_("weaker agent's win rate"), N_("branching factor"))}
COMPARISON_NOTE = N_(
    "Each cell minus its baseline cell (the same line-up at the baseline's options). Rates: Newcombe's 95% interval "
    "and the two-proportion z-test; means: Welch's interval and t-test. The adjusted p-values treat every test of "
    "the study (these and each cell's test of equal seats) as one family.")
COMPARISON_NOTE_PAIRED = N_(
    "Each cell minus its baseline cell (the same line-up at the baseline's options), game by game: the cells played "
    "the same chance seeds, so each difference is the mean of the paired differences, with its 95% t interval and "
    "the paired t-test. The adjusted p-values treat every test of the study (these and each cell's test of equal "
    "seats) as one family.")


SEAT_AGENT_NOTE = N_(
    "Where different agents meet, a logistic model separates the seat from the agent: each seat of each game is "
    "one observation (won or not), explained by the agent, whether it moved first, and their interaction "
    "(a binomial GLM, standard errors clustered by game). Win rates are the model's, with 95% intervals; an odds "
    "ratio above 1 means moving first helps that agent; a small interaction p means it helps one agent more than "
    "the other (with two seats both agents' odds ratios are one and the same, and there is nothing to test).")


STRENGTH_NOTE = N_(
    "The study's question asked again with every seat played by each agent of the sweep, weakest first: each "
    "cell's difference from the baseline at each strength (✓: it holds after the adjustment for multiple tests). "
    "An effect that holds only for weak agents may be an artefact of weak play. The upset rate is how often the "
    "weakest agent beats the strongest: high in a game of luck, near zero in a game of skill.")
CURVES_NOTE = N_(
    "A numeric sweep is fitted game by game across its cells: game length by least squares and the first seat's "
    "share of the win by a logistic model, each quadratic in the option's value (a straight line below four values), "
    "with 95% confidence bands (statsmodels). p (flat) tests that the measure does not change with the option.")


def _matplotlib():
    try:
        import matplotlib
    except ImportError:
        from tileworks.lab.run import LAB_MISSING

        raise StudyError(LAB_MISSING) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    # Japanese labels need a CJK font; matplotlib falls back through this list
    _find_cjk_font()
    plt.rcParams["font.family"] = ["DejaVu Sans", "Noto Sans CJK JP", "Noto Sans CJK", "IPAGothic"]
    plt.rcParams["svg.fonttype"] = "path"  # figures show the same everywhere, no fonts needed
    plt.rcParams["figure.dpi"] = 100
    import logging

    logging.getLogger("matplotlib.font_manager").setLevel(logging.ERROR)
    return plt


def _find_cjk_font() -> None:
    """Make a CJK font installed after matplotlib built its font cache known to it."""
    from matplotlib import font_manager

    if any("CJK" in font.name for font in font_manager.fontManager.ttflist):
        return
    for path in font_manager.findSystemFonts():
        if "CJK" in Path(path).name and "Regular" in Path(path).name:
            font_manager.fontManager.addfont(path)


@dataclass
class Measured:
    """A study's games, measured cell by cell, and how complete they are."""

    described: dict[str, Any]
    study: Any  # the Study
    cells: list[Cell]
    rows: dict[int, list[dict[str, Any]]]  # each cell's games, in index order
    results: dict[int, Any]  # each cell's measures
    planned: dict[int, int]  # games each cell is set to play
    beyond: int = 0  # stored games past a cell's planned number (its games were lowered), left out
    live: bool = False  # a run was writing the store: a snapshot of the games so far
    winner_rule: str = "score"  # the game's (tileworks.core.game.Game.winner_rule)
    stopping: dict[int, dict[str, Any]] = field(default_factory=dict)  # precision studies: each cell's main interval

    @property
    def unfinished(self) -> list[Cell]:
        return [cell for cell in self.cells if len(self.rows[cell.number]) < self.planned[cell.number]]


def measure_study(out: Path) -> Measured:
    """The study, its cells, each cell's rows (those its set-up asks for) and measures."""
    from tileworks.lab.run import being_written

    live = being_written(out)
    described, rows = load_rows(out)
    study = study_from_description(described)
    cells = study.cells()
    planned = {cell.number: cell.games(study) for cell in cells}
    by_cell: dict[int, list[dict[str, Any]]] = {cell.number: [] for cell in cells}
    beyond = 0
    for row in rows:
        if row["cell"] in planned and row["game_index"] >= planned[row["cell"]]:
            beyond += 1  # played before the study's games were lowered
            continue
        by_cell.setdefault(row["cell"], []).append(row)
    stopping = _stopping(study, cells, by_cell, planned) if study.precision is not None else {}
    rule = tileworks.load_game(study.game, **cells[0].options).winner_rule
    results = {cell.number: m.measure_cell(by_cell[cell.number], study.measures, cell.lineup.weaker, rule)
               for cell in cells}
    if "catch_up" in study.measures:
        first: dict[str, int] = {}
        for cell in cells:
            if cell.lineup.weaker is None or "catch_up" not in results[cell.number]:
                continue
            base = first.setdefault(cell.lineup.name, cell.number)
            results[cell.number]["catch_up"]["change"] = m.difference(results[cell.number]["catch_up"],
                                                                       results[base]["catch_up"])
            results[cell.number]["catch_up"]["baseline"] = base
    return Measured(described, study, cells, by_cell, results, planned, beyond, live, rule, stopping)


def _stopping(study: Any, cells: list[Cell], rows: dict[int, list[dict[str, Any]]],
              planned: dict[int, int]) -> dict[int, dict[str, Any]]:
    """A precision study's cells: each one's main interval (the betting
    confidence sequence), and whether it stopped there. A cell that reached
    the precision is finished with fewer games than its cap."""
    from tileworks.lab.precision import main_value, settled

    found = {}
    for cell in cells:
        values = {row["game_index"]: main_value(row, cell.lineup.weaker) for row in rows[cell.number]}
        done, interval, n = settled(values, study.precision, planned[cell.number])
        reached = done and n < planned[cell.number] or (interval[1] - interval[0]) / 2 <= study.precision
        if done:
            planned[cell.number] = len(rows[cell.number])
        found[cell.number] = {"low": interval[0], "high": interval[1], "games": n, "reached": bool(reached and n),
                              "done": done}
    return found


def write_report(out: Path, to: Path | None = None, language: str = "en") -> Path:
    """Measure the study in ``out`` and write its report into ``to``
    (default ``out/report``); returns the HTML page's path."""
    with speaking(language):
        return _Report(Path(out), Path(to) if to else Path(out) / "report", language).write()


def _pct(value: float) -> str:
    return "–" if value is None or math.isnan(value) else f"{100 * value:.1f}%"


def _num(value: float, digits: int = 1) -> str:
    return "–" if value is None or math.isnan(value) else f"{value:.{digits}f}"


def _rate(r: dict[str, Any]) -> str:
    """``52.0% (49.2–54.8%)``"""
    if not r["n"]:
        return "–"
    return f"{_pct(r['rate'])} <small>({_pct(r['low'])}–{_pct(r['high'])})</small>"


def _mean(r: dict[str, Any], digits: int = 1) -> str:
    if not r["n"]:
        return "–"
    if math.isnan(r["low"]):
        return _num(r["mean"], digits)
    return f"{_num(r['mean'], digits)} <small>({_num(r['low'], digits)}–{_num(r['high'], digits)})</small>"


def _signed(d: dict[str, Any], key: str) -> str:
    """A difference of rates in percentage points, with its interval."""
    if math.isnan(d[key]):
        return "–"
    return _("{value} pts <small>({low} to {high})</small>", value=f"{100 * d[key]:+.1f}",
             low=f"{100 * d['low']:+.1f}", high=f"{100 * d['high']:+.1f}")


def _p(value: float) -> str:
    """A p-value: three decimals, or "< 0.001" (a p-value is never 0).

    >>> _p(0.0312), _p(3e-7)
    ('0.031', '< 0.001')
    """
    if value is None or math.isnan(value):
        return "–"
    return "< 0.001" if value < 0.0005 else f"{value:.3f}"


def _p_html(value: float) -> str:
    return html.escape(_p(value))


class _Report:
    def __init__(self, out: Path, to: Path, code: str):
        self.out, self.to, self.code = out, to, code
        self.suffix = "" if code == "en" else f".{code}"
        self.measured = measure_study(out)
        self.described, self.cells, self.rows, self.results = (
            self.measured.described, self.measured.cells, self.measured.rows, self.measured.results)
        study = self.measured.study
        self.family = compare_cells(self.cells, self.rows, self.results, study.baseline_of(), study.measures,
                                    study.paired, study.adjust)
        self.curves = response_curves(study, self.cells, self.rows) if study.sweeps else []
        self.figures: list[tuple[str, str, str]] = []  # (file stem, title, inline svg)
        self.plt = _matplotlib()

    # -- the page -------------------------------------------------------
    def write(self) -> Path:
        self.to.mkdir(parents=True, exist_ok=True)
        if not any(self.rows.values()):
            raise StudyError(f"{self.out} holds no finished games yet; run the study first")
        self._figures()
        sections = [self._warnings(), self._summary(), self._setup(), self._strength_section(), self._comparisons(),
                    self._curves_section()]
        for key in self.described["measures"]:
            table = self._table(key)
            if table:
                sections.append(table)
            if key == "balance":
                sections.append(self._seat_and_agent())
        figures = "\n".join(
            f'<figure id="fig-{stem}">{svg}<figcaption>{html.escape(title)} '
            f'(<a href="{stem}{self.suffix}.png">PNG</a>, <a href="{stem}{self.suffix}.svg">SVG</a>)</figcaption></figure>'
            for stem, title, svg in self.figures)
        title = html.escape(self.described.get("title") or self.described["game"])
        page = PAGE.format(lang=self.code, title=title, heading=_("Balance study"),
                           sections="\n".join(sections), figures_heading=_("Figures"), figures=figures,
                           footer=html.escape(_("Made by tileworks study report from {path}.", path=str(self.out))))
        path = self.to / f"report{self.suffix}.html"
        path.write_text(page, encoding="utf-8")
        (self.to / "measures.json").write_text(json.dumps(_plain(self.results), indent=1) + "\n", encoding="utf-8")
        return path

    def _warnings(self) -> str:
        """What the reader must know before the numbers: a run still going,
        cells short of their games, games left out."""
        said = []
        measured = self.measured
        if measured.live:
            said.append(_("A run is writing this study: the report reads the games finished so far."))
        if measured.unfinished:
            played = sum(len(rows) for rows in self.rows.values())
            planned = sum(measured.planned.values())
            empty = [cell for cell in measured.unfinished if not self.rows[cell.number]]
            said.append(_("This study is not finished: {played} of {planned} games played, {cells} of {total} cells "
                          "short of their games. Intervals are wider than the set-up plans; run the study again to "
                          "finish it.", played=played, planned=planned, cells=len(measured.unfinished),
                          total=len(self.cells)))
            if empty:
                said.append(_("Cells with no games yet, left out of the tables and figures: {cells}.",
                              cells=", ".join(f"{cell.number} ({self._cell_name(cell)})" for cell in empty)))
        if measured.beyond:
            said.append(_("{games} stored games lie beyond the games a cell is now set to play (games was lowered) "
                          "and are left out.", games=measured.beyond))
        if not said:
            return ""
        return '<section class="warning">' + "".join(f"<p>{html.escape(line)}</p>" for line in said) + "</section>"

    # -- the answer first: comparisons with the baseline ------------------
    def _amount(self, comparison: Comparison, value: float, signed: bool = True) -> str:
        if comparison.quantity.kind == "rate":
            return _("{value} pts", value=f"{100 * value:+.1f}" if signed else f"{100 * abs(value):.1f}")
        return f"{value:+.1f}" if signed else f"{abs(value):.1f}"

    def _finding(self, comparison: Comparison) -> str:
        """One comparison in words: a change that survives the adjustment, or none."""
        r = comparison.result
        what = _(QUANTITY_NAMES[comparison.quantity.name])
        interval = _("{low} to {high}", low=self._amount(comparison, r["low"]), high=self._amount(comparison, r["high"]))
        if comparison.survives:
            template = (N_("{what} rises by {amount} ({interval})") if r["difference"] > 0
                        else N_("{what} falls by {amount} ({interval})"))
            return _(template, what=what, amount=self._amount(comparison, r["difference"], signed=False),
                     interval=interval)
        return _("no clear change in {what} ({amount}, {interval})", what=what,
                 amount=self._amount(comparison, r["difference"]), interval=interval)

    def _summary(self) -> str:
        """The study's answer in a few sentences: what each cell changes
        against its baseline, and which seat advantages hold."""
        family = self.family
        if not family.comparisons and not family.seat_tests:
            return ""
        method = _("Holm's method") if family.method == "holm" else _("Benjamini–Hochberg")
        said = [_("{tests} tests, adjusted together by {method}: {surviving} findings hold at 5%.",
                  tests=family.tests, method=method, surviving=family.surviving)]
        names = {cell.number: self._cell_name(cell) for cell in self.cells}
        by_cell: dict[int, list[Comparison]] = {}
        for comparison in family.comparisons:
            by_cell.setdefault(comparison.cell, []).append(comparison)
        for cell, found in by_cell.items():
            clear = [c for c in found if c.survives]
            unclear = [c for c in found if not c.survives and not math.isnan(c.result["p"])]
            parts = [self._finding(c) for c in clear]
            if unclear:
                parts.append(_("no clear change in {what}", what=", ".join(
                    _(QUANTITY_NAMES[c.quantity.name]) for c in unclear)))
            said.append(_("{cell}, against {baseline}: {findings}.", cell=names[cell],
                          baseline=names[found[0].baseline], findings="; ".join(parts)))
        advantaged = [number for number, test in family.seat_tests.items() if test["adjusted_p"] < 0.05]
        if family.seat_tests:
            if advantaged:
                said.append(_("A seat advantage holds in {cells}; elsewhere the seats are not shown to differ.",
                              cells=", ".join(self._seat_finding(n) for n in advantaged)))
            else:
                said.append(_("No cell shows a seat advantage after the adjustment."))
        items = "".join(f"<li>{html.escape(line)}</li>" for line in said[1:])
        heading = html.escape(_("Summary"))
        return (f'<section id="summary"><h2>{heading}</h2><p>{html.escape(said[0])}</p>'
                f"<ul>{items}</ul></section>")

    def _seat_finding(self, number: int) -> str:
        first = self.results[number]["balance"]["seats"][0]
        cell = next(c for c in self.cells if c.number == number)
        return _("{cell} (the first seat wins {rate})", cell=self._cell_name(cell), rate=_pct(first["rate"]))

    def _comparisons(self) -> str:
        family = self.family
        if not family.comparisons:
            return ""
        names = {cell.number: self._cell_name(cell) for cell in self.cells}
        paired = self.measured.study.paired
        lines = []
        for c in family.comparisons:
            r = c.result
            interval = _("{low} to {high}", low=self._amount(c, r["low"]), high=self._amount(c, r["high"]))
            amount = "–" if math.isnan(r["difference"]) else (
                f"{html.escape(self._amount(c, r['difference']))} <small>({html.escape(interval)})</small>")
            verdict = _("holds") if c.survives else _("not shown")
            lines.append(f"<tr><td>{html.escape(names[c.cell])}</td><td>{html.escape(names[c.baseline])}</td>"
                         f"<td>{html.escape(_(QUANTITY_NAMES[c.quantity.name]))}</td><td>{amount}</td>"
                         f"<td>{_p_html(r['p'])}</td><td>{_p_html(c.adjusted_p)}</td><td>{html.escape(verdict)}</td></tr>")
        columns = [pgettext("study", "cell"), _("baseline"), _("measure"), _("difference (95% interval)"), _("p"),
                   _("adjusted p"), _("at 5%")]
        head = "".join(f"<th>{html.escape(c)}</th>" for c in columns)
        note = _(COMPARISON_NOTE_PAIRED if paired else COMPARISON_NOTE)
        heading = html.escape(_("Against the baseline"))
        return (f'<section id="comparisons"><h2>{heading}</h2>'
                f"<p>{html.escape(note)}</p><table><tr>{head}</tr>{''.join(lines)}</table></section>")

    def _seat_and_agent(self) -> str:
        """The logistic model of each cell where different agents meet (see tileworks.lab.seat_agent)."""
        from tileworks.lab.seat_agent import seat_agent_model

        lines = []
        for cell in self.cells:
            if len(set(cell.lineup.agents)) < 2 or not self.rows[cell.number]:
                continue
            model = seat_agent_model(self.rows[cell.number])
            if model is None:
                why = html.escape(_("not fitted: an agent always or never wins, or too few games"))
                lines.append(f"<tr><td>{html.escape(self._cell_name(cell))}</td><td colspan=5>{why}</td></tr>")
                continue
            for agent, entry in model["agents"].items():
                ratio = entry["odds_ratio"]
                lines.append(
                    f"<tr><td>{html.escape(self._cell_name(cell))}</td><td>{html.escape(agent)}</td>"
                    f"<td>{_rate({'n': 1, **entry['first']})}</td><td>{_rate({'n': 1, **entry['later']})}</td>"
                    f"<td>{_num(ratio['value'], 2)} <small>({_num(ratio['low'], 2)}–{_num(ratio['high'], 2)})</small></td>"
                    f"<td>{_p_html(model['interaction_p'])}</td></tr>")
        if not lines:
            return ""
        columns = [pgettext("study", "cell"), _("agent"), _("win rate moving first"), _("win rate moving later"),
                   _("odds ratio of moving first"), _("interaction p")]
        head = "".join(f"<th>{html.escape(c)}</th>" for c in columns)
        heading = html.escape(_("Seat and agent apart"))
        return (f'<section id="seat-agent"><h2>{heading}</h2>'
                f"<p>{html.escape(_(SEAT_AGENT_NOTE))}</p><table><tr>{head}</tr>{''.join(lines)}</table></section>")

    def _strength_section(self) -> str:
        """A strength sweep: each effect at each strength, and the upset rate."""
        strengths = self.measured.study.strengths
        if not strengths:
            return ""
        by_lineup = {f"all {spec}": spec for spec in strengths}
        found: dict[tuple[str, str], dict[str, Comparison]] = {}
        for comparison in self.family.comparisons:
            cell = self._cell(comparison.cell)
            if cell.lineup.name in by_lineup:
                found.setdefault((cell.label, comparison.quantity.name), {})[by_lineup[cell.lineup.name]] = comparison
        lines = []
        for (label, quantity), at in found.items():
            values = []
            for spec in strengths:
                c = at.get(spec)
                if c is None or math.isnan(c.result["difference"]):
                    values.append("<td>–</td>")
                    continue
                mark = " ✓" if c.survives else ""
                interval = _("{low} to {high}", low=self._amount(c, c.result["low"]), high=self._amount(c, c.result["high"]))
                values.append(f"<td>{html.escape(self._amount(c, c.result['difference']))}{mark} "
                              f"<small>({html.escape(interval)})</small></td>")
            held = [spec for spec in strengths if spec in at and at[spec].survives]
            verdict = (_("at every strength") if len(held) == len(strengths) else
                       _("at {held} only", held=", ".join(held)) if held else _("at none"))
            lines.append(f"<tr><td>{html.escape(label)}</td><td>{html.escape(_(QUANTITY_NAMES[quantity]))}</td>"
                         + "".join(values) + f"<td>{html.escape(verdict)}</td></tr>")
        columns = [pgettext("study", "cell"), _("measure"), *strengths, _("the effect holds")]
        head = "".join(f"<th>{html.escape(c)}</th>" for c in columns)
        upsets = []
        for cell in self.cells:
            if cell.lineup.weaker and cell.lineup.name not in by_lineup and "catch_up" in self.results[cell.number]:
                r = self.results[cell.number]["catch_up"]
                upsets.append(_("{cell}: {weaker} wins {rate} of its games against {stronger}", cell=cell.label,
                                weaker=cell.lineup.weaker, rate=_pct(r["rate"]) + f" ({_pct(r['low'])}–{_pct(r['high'])})",
                                stronger=self.measured.study.strengths[-1]))
        heading = html.escape(_("Strength sweep: does the effect hold as play gets stronger?"))
        note = html.escape(_(STRENGTH_NOTE))
        upset = ("<h3>" + html.escape(_("Skill against luck: the upset rate")) + "</h3><ul>"
                 + "".join(f"<li>{html.escape(line)}</li>" for line in upsets) + "</ul>") if upsets else ""
        table = f"<table><tr>{head}</tr>{''.join(lines)}</table>" if lines else ""
        return f'<section id="strength"><h2>{heading}</h2><p>{note}</p>{table}{upset}</section>'

    def _cell(self, number: int) -> Cell:
        return next(cell for cell in self.cells if cell.number == number)

    def _curves_section(self) -> str:
        """The numeric sweeps: each fitted curve's ends and its trend test."""
        if not self.curves:
            return ""
        lines = []
        for curve in self.curves:
            first, last = curve.points[0], curve.points[-1]
            digits = 3 if RESPONSES[curve.response][1] == "binomial" else 1
            fitted_at = (f"{_num(curve.mean[0], digits)} <small>({_num(curve.low[0], digits)}–{_num(curve.high[0], digits)})</small>",
                         f"{_num(curve.mean[-1], digits)} <small>({_num(curve.low[-1], digits)}–{_num(curve.high[-1], digits)})</small>")
            shape = _("quadratic") if curve.degree == 2 else _("straight line")
            lines.append(f"<tr><td>{html.escape(curve.series)}</td><td>{html.escape(_(RESPONSES[curve.response][0]))}</td>"
                         f"<td>{first['x']:g}: {fitted_at[0]}</td><td>{last['x']:g}: {fitted_at[1]}</td>"
                         f"<td>{html.escape(shape)}</td><td>{_p_html(curve.p_trend)}</td></tr>")
        axes = ", ".join(dict.fromkeys(curve.axis for curve in self.curves))
        columns = [_("series"), _("measure"), _("fitted at the first value"), _("fitted at the last value"), _("curve"),
                   _("p (flat)")]
        head = "".join(f"<th>{html.escape(c)}</th>" for c in columns)
        heading = html.escape(_("Response to {axis}", axis=axes))
        return (f'<section id="curves"><h2>{heading}</h2>'
                f"<p>{html.escape(_(CURVES_NOTE))}</p><table><tr>{head}</tr>{''.join(lines)}</table></section>")

    def _curve_figures(self) -> None:
        for axis in dict.fromkeys(curve.axis for curve in self.curves):
            found = [c for c in self.curves if c.axis == axis]
            fig, panels = self.plt.subplots(1, len(RESPONSES), figsize=(11, 4.2), squeeze=False)
            for ax, response in zip(panels[0], RESPONSES, strict=True):
                for colour, curve in enumerate(c for c in found if c.response == response):
                    ax.fill_between(curve.xs, curve.low, curve.high, color=f"C{colour}", alpha=0.2)
                    ax.plot(curve.xs, curve.mean, color=f"C{colour}", label=_cut(curve.series, 40))
                    ax.errorbar([p["x"] for p in curve.points], [p["mean"] for p in curve.points],
                                yerr=[[max(0.0, p["mean"] - p["low"]) for p in curve.points],
                                      [max(0.0, p["high"] - p["mean"]) for p in curve.points]],
                                fmt="o", color=f"C{colour}", markersize=3, capsize=2)
                ax.set_xlabel(axis)
                ax.set_ylabel(_(RESPONSES[response][0]))
                ax.legend(fontsize=7)
            fig.suptitle(_("Response to {axis}: fitted curve with its 95% band; points: each cell with its interval",
                           axis=axis), fontsize=10)
            self._save(fig, f"sweep-{axis}", _("Game length and the first seat's win rate against {axis}", axis=axis))

    def _setup(self) -> str:
        d = self.described
        total = sum(len(rows) for rows in self.rows.values())
        facts = [
            (_("game"), d["game"]),
            (_("seed"), str(d["seed"])),
            (_("fixed options"), ", ".join(f"{k}={_value(v)}" for k, v in d.get("options", {}).items()) or _("none")),
            (_("grid"), "; ".join(f"{k}: {', '.join(_value(v) for v in vs)}" for k, vs in d.get("grid", {}).items())
             or _("none")),
            (_("line-ups"), "; ".join(f"{l['name']} ({', '.join(l['agents'])}; {l['games']} " + _("games a cell") + ")"
                                      for l in d["lineups"])),
            (_("games played"), f"{total} " + _("in {cells} cells", cells=len(self.cells))),
            (_("baseline"), ", ".join(f"{k}={_value(v)}" for k, v in d.get("baseline", {}).items())
             or _("the first value of each axis")),
            (_("paired deals"), _("yes: every cell plays the same chance seeds") if d.get("paired") else _("no")),
        ]
        if d.get("precision") is not None:
            facts.append((_("stopping"), _("each cell until its main interval is within ±{precision} (a betting confidence "
                                           "sequence, Waudby-Smith and Ramdas 2024), or at its games",
                                           precision=d["precision"])))
        items = "".join(f"<tr><th>{html.escape(k)}</th><td>{html.escape(v)}</td></tr>" for k, v in facts)
        stopping = self.measured.stopping
        cells = "".join(
            f"<tr><td>{cell.number}</td><td>{html.escape(cell.label)}</td><td>{html.escape(cell.lineup.name)}</td>"
            f"<td>{self._played(cell)}</td>" + (self._stopped(cell) if stopping else "") + "</tr>" for cell in self.cells)
        heading, cells_heading = html.escape(_("Set-up")), html.escape(_("Cells"))
        names = ["#", pgettext("study", "cell"), _("line-up"), _("games")]
        if stopping:
            names += [_("main interval (confidence sequence)"), _("stopped")]
        columns = "".join(f"<th>{html.escape(name)}</th>" for name in names)
        return (f"<section><h2>{heading}</h2><table class=facts>{items}</table>"
                f"<h3>{cells_heading}</h3><table><tr>{columns}</tr>{cells}</table></section>")

    def _stopped(self, cell: Cell) -> str:
        found = self.measured.stopping[cell.number]
        interval = f"{_pct(found['low'])}–{_pct(found['high'])}" if found["games"] else "–"
        why = (_("precision reached") if found["reached"] else _("at its games (the cap)") if found["done"]
               else _("still playing"))
        return f"<td>{interval}</td><td>{html.escape(why)}</td>"

    def _played(self, cell: Cell) -> str:
        """A cell's games: ``200``, or ``120 of 200`` while it is short."""
        played, planned = len(self.rows[cell.number]), self.measured.planned[cell.number]
        return str(played) if played >= planned else _("{played} of {planned}", played=played, planned=planned)

    def _table(self, key: str) -> str:
        if key == "agents" and all(len(set(cell.lineup.agents)) == 1 for cell in self.cells):
            return ""  # one agent in every seat: it wins every game, nothing to compare
        undefined = self._not_defined(key)
        if undefined:
            return (f'<section id="{key}"><h2>{html.escape(_(MEASURE_NAMES[key]))}</h2>'
                    f"<p>{html.escape(undefined)}</p></section>")
        columns, row_of = self._columns(key)
        body = []
        for cell in self.cells:
            result = self.results[cell.number].get(key)
            if result is None or not self.rows[cell.number]:
                continue
            body.append("<tr><td>" + html.escape(self._cell_name(cell)) + "</td>"
                        + "".join(f"<td>{v}</td>" for v in row_of(cell, result)) + "</tr>")
        if not body:
            return ""
        head = "".join(f"<th>{html.escape(c)}</th>" for c in [pgettext("study", "cell"), *columns])
        return (f'<section id="{key}"><h2>{html.escape(_(MEASURE_NAMES[key]))}</h2>'
                f"<p>{html.escape(_(MEASURE_NOTES[key]))}</p><table><tr>{head}</tr>{''.join(body)}</table></section>")

    def _not_defined(self, key: str) -> str | None:
        """Why a measure means nothing for these games, or None."""
        found = [self.results[c.number][key] for c in self.cells if self.rows[c.number] and key in self.results[c.number]]
        if not found or all(r.get("defined", True) for r in found):
            return None
        if key == "tiebreak":
            return _("Not defined for {game}: its scores do not decide the winner (a race, or a game won by going "
                     "out), so there are no ties on the top score to break.", game=self.described["game"])
        return _("Not defined: these games score only at the end, so nobody leads before the last turn.")

    def _cell_name(self, cell: Cell) -> str:
        lineups = {c.lineup.name for c in self.cells}
        return cell.label if len(lineups) == 1 else f"{cell.label} · {cell.lineup.name}" if cell.axes else cell.lineup.name

    def _columns(self, key: str) -> tuple[list[str], Callable[[Cell, Any], list[str]]]:
        most = max(cell.players for cell in self.cells)
        seats = [_("seat {seat}", seat=s + 1) for s in range(most)]

        def seat_values(cell: Cell, values: list[str]) -> list[str]:
            return values + ["" for _ in range(most - len(values))]

        if key == "balance":
            tests = self.family.seat_tests
            return ([*seats, _("first seat's advantage"), _("χ² p (equal seats)"), _("adjusted p"), _("balance score")],
                    lambda cell, r: [*seat_values(cell, [_rate(s) for s in r["seats"]]),
                                     _signed(r["first_player_advantage"], "advantage"),
                                     _p_html(r["p_value"]), _p_html(tests.get(cell.number, {}).get("adjusted_p", float("nan"))),
                                     _num(r["balance_score"], 3)])
        if key == "agents":
            return ([_("agent: win rate")], lambda cell, r: ["<br>".join(
                f"{html.escape(a)}: {_rate(v)}" for a, v in r.items())])
        if key == "scores":
            return ([*seats, _("all seats (sd)")],
                    lambda cell, r: [*seat_values(cell, [_mean(s) for s in r["seats"]]),
                                     f"{_mean(r['all'])} ({_num(r['all']['sd'])})"])
        if key == "margin":
            return ([_("mean margin"), _("sd"), _("games with one winner")],
                    lambda cell, r: [_mean(r), _num(r["sd"]), str(r["n"])])
        if key == "duration":
            return ([_("decisions"), _("turns")], lambda cell, r: [_mean(r["decisions"]), _mean(r["turns"])])
        if key == "drawishness":
            return ([_("shared-win rate")], lambda cell, r: [_rate(r)])
        if key == "tiebreak":
            if self.measured.winner_rule == "score":  # a tie on the top score is a shared win: nothing breaks it
                return ([_("top score shared (no tie-break rule: a shared win)")], lambda cell, r: [_rate(r["tied"])])
            return ([_("top score shared"), _("decided by the tie-break")],
                    lambda cell, r: [_rate(r["tied"]), _rate(r["decided"])])
        if key == "lead_change":
            return ([_("lead changes a game"), _("share of turns")],
                    lambda cell, r: [_mean(r["per_game"], 2), _mean(r["share_of_turns"], 3)])
        if key == "comeback":
            return ([_("comeback rate"), _("games with one winner")], lambda cell, r: [_rate(r), str(r["n"])])
        if key == "complexity":
            return ([_("branching factor"), _("forced moves"), _("decisions a turn"), _("uncertainty"), _("drama")],
                    lambda cell, r: [_mean(r["branching"]), _mean(r["forced"], 3), _mean(r["per_turn"], 2),
                                     _mean(r["uncertainty"], 3), _mean(r["drama"], 3)])
        return ([_("weaker agent"), _("win rate"), _("change from the line-up's first cell")],
                lambda cell, r: [html.escape(cell.lineup.weaker or ""), _rate(r),
                                 _signed(r["change"], "difference") if r.get("baseline") != cell.number else "—"])

    # -- the figures ----------------------------------------------------
    def _figures(self) -> None:
        measured = self.described["measures"]
        if "balance" in measured:
            self._seat_figure()
        if "catch_up" in measured and any(c.lineup.weaker for c in self.cells):
            self._catch_up_figure()
        if "scores" in measured:
            self._score_figure()
        if "margin" in measured:
            self._margin_figure()
        if "tiebreak" in measured and not self._not_defined("tiebreak"):
            self._tiebreak_figure()
        if "duration" in measured:
            self._length_figure()
        self._trajectory_figure()
        self._curve_figures()

    def _save(self, fig, stem: str, title: str) -> None:
        fig.tight_layout()
        # "tight" grows the saved picture to hold every label (long cell names, legends)
        for kind in ("png", "svg"):
            fig.savefig(self.to / f"{stem}{self.suffix}.{kind}", format=kind, bbox_inches="tight")
        buffer = io.StringIO()
        fig.savefig(buffer, format="svg", bbox_inches="tight")
        svg = buffer.getvalue()
        svg = svg[svg.index("<svg"):]
        self.figures.append((stem, title, svg))
        self.plt.close(fig)

    def _short_name(self, cell: Cell) -> str:
        """A cell's name on a figure's axis: one line per grid value (long
        values cut), and the line-up when the study has several."""
        lines = [f"{name}={_cut(value, 8)}"
                 for name, value in (part.split("=", 1) for part in cell.label.split(", ") if "=" in part)]
        if len({c.lineup.name for c in self.cells}) > 1 or not lines:
            lines.append(_cut(cell.lineup.name, 18))
        return "\n".join(lines)

    def _per_cell(self, cells: list[Cell]) -> Any:
        """A figure with one place per cell along x, as wide as they need."""
        return self.plt.subplots(figsize=(max(6.4, 1.35 * len(cells) + 1.5), 4.2))

    def _ticks(self, ax, cells: list[Cell], first: int = 0) -> None:
        ax.set_xticks(range(first, first + len(cells)), [self._short_name(c) for c in cells], fontsize=7)

    def _seat_figure(self) -> None:
        cells = [c for c in self.cells if self.rows[c.number]]
        most = max(c.players for c in cells)
        fig, ax = self._per_cell(cells)
        width = 0.8 / most
        for seat in range(most):
            xs, ys, lows, highs = [], [], [], []
            for x, cell in enumerate(cells):
                seats = self.results[cell.number]["balance"]["seats"]
                if seat < len(seats):
                    s = seats[seat]
                    xs.append(x - 0.4 + width * (seat + 0.5))
                    ys.append(s["rate"])
                    lows.append(max(0.0, s["rate"] - s["low"]))
                    highs.append(max(0.0, s["high"] - s["rate"]))
            ax.bar(xs, ys, width * 0.9, yerr=[lows, highs], capsize=2, label=_("seat {seat}", seat=seat + 1))
        for x, cell in enumerate(cells):
            ax.hlines(1 / cell.players, x - 0.45, x + 0.45, colors="black", linestyles="dashed", linewidth=1)
        self._ticks(ax, cells)
        ax.set_ylabel(_("win rate (95% interval)"))
        ax.set_title(_("Win rate by seat in turn order (seat 1 moved first); dashed: a fair share"))
        ax.legend(fontsize=8, ncol=min(most, 6))
        self._save(fig, "seats", _("Win rate by seat, per cell, with 95% intervals"))

    def _catch_up_figure(self) -> None:
        cells = [c for c in self.cells if c.lineup.weaker and self.rows[c.number]]
        fig, ax = self._per_cell(cells)
        ys = [self.results[c.number]["catch_up"]["rate"] for c in cells]
        errors = [[max(0.0, y - self.results[c.number]["catch_up"]["low"]) for y, c in zip(ys, cells, strict=True)],
                  [max(0.0, self.results[c.number]["catch_up"]["high"] - y) for y, c in zip(ys, cells, strict=True)]]
        colours = {name: f"C{i}" for i, name in enumerate(dict.fromkeys(c.lineup.name for c in cells))}
        ax.bar(range(len(cells)), ys, yerr=errors, capsize=3, color=[colours[c.lineup.name] for c in cells])
        self._ticks(ax, cells)
        ax.set_ylabel(_("weaker agent's win rate (95% interval)"))
        ax.set_title(_("Catch-up: the weaker agent's win rate"))
        self._save(fig, "catch-up", _("The weaker agent's win rate per cell, with 95% intervals"))

    def _score_figure(self) -> None:
        cells = [c for c in self.cells if self.rows[c.number]]
        fig, ax = self._per_cell(cells)
        data = [[s for row in self.rows[c.number] for s in row["scores"]] for c in cells]
        ax.violinplot(data, showmedians=True)
        self._ticks(ax, cells, first=1)
        ax.set_ylabel(_("final score"))
        ax.set_title(_("Final scores, every seat"))
        self._save(fig, "scores", _("The distribution of final scores per cell"))

    def _margin_figure(self) -> None:
        cells = [c for c in self.cells if self.results[c.number]["margin"]["n"]]
        if not cells:
            return
        fig, ax = self._per_cell(cells)
        data = [[value for row in self.rows[c.number] if (value := m.margin_of(row)) is not None] for c in cells]
        ax.boxplot(data, showmeans=True)
        self._ticks(ax, cells, first=1)
        ax.set_ylabel(_("winner's score − best other score"))
        ax.set_title(_("Winning margin (games with one winner); triangle: the mean"))
        self._save(fig, "margin", _("The distribution of winning margins per cell"))

    def _tiebreak_figure(self) -> None:
        cells = [c for c in self.cells if self.rows[c.number]]
        fig, ax = self._per_cell(cells)
        for offset, (key, name) in zip((-0.2, 0.2), (("tied", _("top score shared")),
                                                      ("decided", _("decided by the tie-break"))), strict=True):
            rates = [self.results[c.number]["tiebreak"][key] for c in cells]
            ax.bar([x + offset for x in range(len(cells))], [r["rate"] for r in rates], 0.38,
                   yerr=[[max(0.0, r["rate"] - r["low"]) for r in rates], [max(0.0, r["high"] - r["rate"]) for r in rates]],
                   capsize=2, label=name)
        self._ticks(ax, cells)
        ax.set_ylabel(_("share of games (95% interval)"))
        ax.set_title(_("Ties on the top score and the tie-break"))
        ax.legend(fontsize=8)
        self._save(fig, "tiebreak", _("Games with a shared top score, and games the tie-break decided, per cell"))

    def _length_figure(self) -> None:
        plt = self.plt
        cells = [c for c in self.cells if self.rows[c.number]]
        if len(cells) > self.OVERLAID:
            self._length_boxes(cells)
            return
        fig, ax = plt.subplots(figsize=(7, 4))
        shown = cells
        everything = [row["decisions"] for cell in shown for row in self.rows[cell.number]]
        low, high = min(everything), max(everything)
        width = max(1, math.ceil((high - low + 1) / 40))  # whole decisions per bin, the same bins for every cell
        bins = list(range(low, high + width + 1, width))
        for i, cell in enumerate(shown):
            lengths = [row["decisions"] for row in self.rows[cell.number]]
            ax.hist(lengths, bins=bins, weights=[1 / len(lengths)] * len(lengths), histtype="step", linewidth=1.5,
                    color=f"C{i}", label=self._short_name(cell).replace("\n", ", "))
        ax.set_xlabel(_("decisions a game"))
        ax.set_ylabel(_("share of games"))
        ax.set_title(_("Game length"))
        ax.legend(fontsize=7)
        self._save(fig, "length", _("Histograms of game length in decisions, per cell"))

    #: overlaid histograms stay readable up to this many cells; more get a box each
    OVERLAID = 6

    def _length_boxes(self, cells: list[Cell]) -> None:
        fig, ax = self._per_cell(cells)
        ax.boxplot([[row["decisions"] for row in self.rows[c.number]] for c in cells], showmeans=True)
        self._ticks(ax, cells, first=1)
        ax.set_ylabel(_("decisions a game"))
        ax.set_title(_("Game length; triangle: the mean"))
        self._save(fig, "length", _("Game length in decisions, per cell"))

    def _trajectory_figure(self) -> None:
        plt = self.plt
        cells = [c for c in self.cells if self.rows[c.number]]
        columns = min(3 if len(cells) <= 9 else 4, len(cells))
        lines = math.ceil(len(cells) / columns)
        fig, axes = plt.subplots(lines, columns, figsize=(4 * columns, 3 * lines), squeeze=False, sharey=False)
        grid = [i / 20 for i in range(21)]
        for ax, cell in zip(axes.flat, cells, strict=False):
            winner, rival = [], []
            for row in self.rows[cell.number]:
                if len(row["winners"]) != 1 or not row["trajectory"]:
                    continue
                w = row["winners"][0]
                path = row["trajectory"]
                winner.append([_at(path, t)[w] for t in grid])
                rival.append([max(s for seat, s in enumerate(_at(path, t)) if seat != w) for t in grid])
            for series, colour, name in ((winner, "C2", _("winner")), (rival, "C3", _("best other seat"))):
                if not series:
                    continue
                bands = [_quantiles([values[i] for values in series]) for i in range(len(grid))]
                ax.fill_between(grid, [b[0] for b in bands], [b[2] for b in bands], color=colour, alpha=0.25)
                ax.plot(grid, [b[1] for b in bands], color=colour, label=name)
            ax.set_title(self._short_name(cell).replace("\n", ", "), fontsize=8)
            ax.set_xlabel(_("share of the game's turns"), fontsize=8)
            ax.legend(fontsize=7)
        for ax in list(axes.flat)[len(cells):]:
            ax.axis("off")
        fig.suptitle(_("Score over the game: median and middle half, winner against the best other seat"), fontsize=10)
        self._save(fig, "trajectories", _("Score trajectories: the winner's and the best other seat's score"))


def _cut(text: str, most: int) -> str:
    return text if len(text) <= most else text[:most - 1] + "…"


def _at(path: list[list[float]], t: float) -> list[float]:
    """The scores ``t`` of the way through a game (0: after the first turn)."""
    return path[min(len(path) - 1, round(t * (len(path) - 1)))]


def _quantiles(values: list[float]) -> tuple[float, float, float]:
    ordered = sorted(values)

    def q(p: float) -> float:
        position = p * (len(ordered) - 1)
        low = math.floor(position)
        high = min(low + 1, len(ordered) - 1)
        return ordered[low] + (ordered[high] - ordered[low]) * (position - low)

    return q(0.25), q(0.5), q(0.75)


def _value(value: Any) -> str:
    if isinstance(value, list):
        return "+".join(map(str, value)) or "none"
    return str(value).lower() if isinstance(value, bool) else str(value)


def _plain(value: Any) -> Any:
    """Measures as JSON: floats, with NaN as null."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, float) or hasattr(value, "item"):
        number = float(value)
        return None if math.isnan(number) else number
    return value


PAGE = """<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
body {{ font-family: system-ui, "Noto Sans CJK JP", sans-serif; margin: 2rem auto; max-width: 70rem; padding: 0 1rem;
       color: #1d2430; line-height: 1.45; }}
h1 {{ margin-bottom: 0; }} h1 small {{ display: block; font-size: 1rem; color: #5b6472; font-weight: normal; }}
table {{ border-collapse: collapse; margin: 0.6rem 0 1.2rem; font-size: 0.92rem; }}
th, td {{ border-bottom: 1px solid #d9dee5; padding: 0.25rem 0.7rem; text-align: left; vertical-align: top; }}
th {{ background: #f2f4f7; }}
small {{ color: #5b6472; }}
figure {{ margin: 1.5rem 0; }} figure svg {{ max-width: 100%; height: auto; }}
figcaption {{ color: #5b6472; font-size: 0.9rem; }}
</style>
</head>
<body>
<h1>{title}<small>{heading}</small></h1>
{sections}
<section><h2>{figures_heading}</h2>
{figures}
</section>
<footer><small>{footer}</small></footer>
</body>
</html>
"""
