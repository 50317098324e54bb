"""An ipywidgets calculator over every registered procedure (notebooks/calculator.ipynb).

The form is built from the procedure's public function: one widget per keyword (whole numbers,
text, comma-separated card lists, check boxes), with `continuous_update=False`, so a value is
taken when the field is left or Enter is pressed. Each change recomputes the Result and shows
its summary and picture; bad input shows the one-line error in red instead of a traceback.
Widgets carry CSS classes `odds-field-<keyword>`, `odds-result`, `odds-error` for tests.
"""
from __future__ import annotations

import html
import inspect
from pathlib import Path

from . import procedures
from .errors import OddsError

# starting values for keywords a procedure requires
START = {"his.field": {"attacker": 5, "defender": 4},
         "his.assault": {"attacker": 6, "defender": 2}, "his.siege": {"attacker": 6, "defender": 2},
         "his.naval": {"attacker_squadrons": 3, "defender_squadrons": 3},
         "vq.naval": {"attacker_galleys": 3, "defender_galleys": 3},
         "oath.campaign": {"warbands": 6, "defense_dice": 4},
         "crusades": {"scenario": str(Path(__file__).parent / "crusades" / "examples" / "field.toml"),
                      "trials": 2000}}


# keywords that name one of a few things -> where the allowed values live
CHOICES = {"method": ("odds.core.engine", "METHODS"), "location": ("odds.his.naval", "LOCATIONS"),
           "edition": ("odds.oath.plans", "EDITIONS"), "title": ("odds.oath.campaign", "TITLES")}


def choices(name: str):
    """The allowed values of a keyword that names one of a few things, or None."""
    from importlib import import_module

    module, attr = CHOICES.get(name, ("odds.his.forces", "POWERS") if name.endswith("_power") else (None, None))
    return tuple(getattr(import_module(module), attr)) if module else None


def _widget(name, default, start):
    import ipywidgets as w

    style = {"description_width": "160px"}
    kw = dict(description=name.replace("_", " "), style=style, continuous_update=False)
    if choices(name) and default in choices(name):
        kw.pop("continuous_update")
        widget = w.Dropdown(options=list(choices(name)), value=default, **kw)
    elif isinstance(default, bool):
        kw.pop("continuous_update")
        widget = w.Checkbox(value=default, **kw)
    elif name in start:
        widget = w.Text(value=str(start[name]), **kw)
    elif default is inspect.Parameter.empty or isinstance(default, int):
        widget = w.Text(value=str(1 if default is inspect.Parameter.empty else default), **kw)
    elif isinstance(default, (tuple, list)):
        widget = w.Text(value=", ".join(default), placeholder="comma-separated", **kw)
    else:
        widget = w.Text(value="" if default is None else str(default), **kw)
    widget.add_class(f"odds-field-{name}")
    return widget


def _value(name, widget, default):
    """The widget's value as the function's keyword wants it (text is parsed, not clamped)."""
    v = widget.value
    if isinstance(default, bool) or choices(name):
        return v
    if isinstance(default, (tuple, list)):
        return [c.strip() for c in v.split(",") if c.strip()]
    if default is inspect.Parameter.empty and not v.strip().lstrip("-").isdigit():
        return v  # a required keyword given as text (e.g. a scenario file)
    if default is inspect.Parameter.empty or isinstance(default, int):
        try:
            return int(v)
        except ValueError:
            raise OddsError(f"{name}: {v!r} is not a whole number") from None
    if default is None:
        return None if not v.strip() else _number(name, v)
    return v


def _number(name, text):
    try:
        return int(text)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            raise OddsError(f"{name}: {text!r} is not a number") from None


class Calculator:
    """`Calculator().widget` is the whole page: procedure picker, form, result, picture."""

    def __init__(self, procedure: str = "his.field"):
        import ipywidgets as w

        self.picker = w.Dropdown(options=list(procedures.PROCEDURES), value=procedure,
                                 description="procedure")
        self.picker.add_class("odds-field-procedure")
        self.form = w.VBox()
        self.result = w.HTML()
        self.result.add_class("odds-result")
        self.error = w.HTML()
        self.error.add_class("odds-error")
        self.picture = w.Output()
        self.picker.observe(lambda _: self._build(), names="value")
        self.widget = w.VBox([self.picker, self.form, self.error, self.result, self.picture])
        self.last = None
        self._build()

    def _build(self):
        params = procedures.parameters(self.picker.value)
        params.update({"method": "auto", "trials": 200_000, "seed": 0})
        self.params = params
        start = START.get(self.picker.value, {})
        self.widgets = {k: _widget(k, d, start) for k, d in params.items()}
        for widget in self.widgets.values():
            widget.observe(lambda _: self.compute(), names="value")
        self.form.children = list(self.widgets.values())
        self.compute()

    def compute(self):
        """Recompute from the form; returns the Result or None (and shows why)."""
        try:
            kwargs = {k: _value(k, self.widgets[k], d) for k, d in self.params.items()}
            if kwargs["method"] == "exact" or kwargs["method"] == "auto":
                kwargs.pop("trials")
            result = procedures.function(self.picker.value)(**kwargs, progress=False)
        except OddsError as e:
            self.error.value = f'<p style="color:#b00020"><b>error:</b> {html.escape(str(e))}</p>'
            self.result.value = ""
            self.picture.clear_output()
            self.last = None
            return None
        self.error.value = ""
        self._draw(result)  # before the text, so a page showing the new text shows the new picture
        self.result.value = f"<pre>{html.escape(result.summary())}</pre>"
        self.last = result
        return result

    def _draw(self, result):
        import matplotlib.pyplot as plt
        from IPython.display import display

        self.picture.clear_output(wait=True)
        with self.picture:
            ax = result.plot()
            display(ax.figure)
            plt.close(ax.figure)
