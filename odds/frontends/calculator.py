"""An ipywidgets calculator over every registered procedure (notebooks/calculator.ipynb).

The form is built from the procedure's spec (odds.registry): a drop-down per choice, a check
box per switch, a text field per number or list (comma-separated), with
`continuous_update=False`, so a value is taken when the field is left or Enter is pressed.
Each change recomputes the Result and shows its summary and picture; bad input shows the
one-line error in red instead of a traceback. Widgets carry CSS classes
`odds-field-<keyword>`, `odds-result`, `odds-error` for tests.
"""
from __future__ import annotations

import html

from .. import registry
from ..errors import OddsError

ENGINE = tuple(o for o in registry.ENGINE_OPTIONS if o.name in ("method", "trials", "seed"))
ENGINE_START = {"method": "auto", "trials": 200_000, "seed": 0}
LISTS = ("cards", "ints", "pairs")


def _widget(param: registry.Param, value):
    import ipywidgets as w

    kw = dict(description=param.name.replace("_", " "), style={"description_width": "160px"})
    if param.kind == "choice":
        widget = w.Dropdown(options=list(param.choices), value=value, **kw)
    elif param.kind == "bool":
        widget = w.Checkbox(value=bool(value), **kw)
    elif param.kind in LISTS:
        widget = w.Text(value=", ".join(map(str, value or ())), placeholder="comma-separated",
                        continuous_update=False, **kw)
    else:
        widget = w.Text(value="" if value in (None, registry.REQUIRED) else str(value),
                        continuous_update=False, **kw)
    widget.add_class(f"odds-field-{param.name}")
    return widget


def _value(param: registry.Param, widget):
    """The widget's value as the function's keyword wants it (text is parsed, not clamped)."""
    v = widget.value
    if param.kind in ("choice", "bool"):
        return v
    if param.kind in LISTS:
        items = [c.strip() for c in v.split(",") if c.strip()]
        return [_number(param.name, c, int) for c in items] if param.kind == "ints" else items
    if not v.strip():
        return None
    if param.kind in ("int", "float"):
        return _number(param.name, v, int if param.kind == "int" else float)
    return v


def _number(name, text, kind):
    try:
        return kind(text)
    except ValueError:
        what = "a whole number" if kind is int else "a number"
        raise OddsError(f"{name}: {text!r} is not {what}") from None


class Calculator:
    """`Calculator().widget` is the whole page: procedure picker, form, result, picture."""

    def __init__(self, procedure: str = "his.field"):
        import ipywidgets as w

        self.picker = w.Dropdown(options=list(registry.specs()), value=procedure,
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
        self.spec = registry.get(self.picker.value)
        values = {**self.spec.defaults(), **ENGINE_START, **self.spec.start}
        self.params = self.spec.params + ENGINE
        self.widgets = {p.name: _widget(p, values[p.name]) for p in self.params}
        for widget in self.widgets.values():
            widget.observe(lambda _: self.compute(), names="value")
        self.form.children = list(self.widgets.values())
        self.compute()

    def compute(self):
        """Recompute from the form; returns the Result or None (and shows why)."""
        try:
            kwargs = {p.name: _value(p, self.widgets[p.name]) for p in self.params}
            kwargs = {k: v for k, v in kwargs.items() if v is not None}
            if kwargs["method"] != "mc" and self.spec.exact:
                kwargs.pop("trials", None)
            result = self.spec.call(**self.spec.check_given(kwargs), progress=False)
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
