"""The forms of online play (DOMAIN §9.4): a guest's name and avatar, "jogar agora", a new table (appearance,
card face and back, optional password), the seat forms of a table and the sala's chat.

Every field says what is wrong in Portuguese; the services check the rules again (a seat taken meanwhile, a host
power asked by someone else) and their refusal reaches the page as its messages.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from ..models.fields import NameFormField

NAME_MAX = 30  # OnlineProfile.display_name
PASSWORD_MAX = 64
CHAT_MAX = 300

# What ART draws (static/img/online/): the felts, the card faces and the backs a table may use.
APPEARANCES = (("verde", _("Feltro verde")), ("azul", _("Feltro azul")), ("vinho", _("Feltro vinho")))
FACES = (("classico", _("Clássicas")), ("grande", _("Índices grandes")))
BACKS = (("azul", _("Azul")), ("vermelho", _("Vermelho")), ("verde", _("Verde")), ("zap", _("Zap")))
ROBOT_LEVELS = (("basico", _("Básico")), ("aleatorio", _("Aleatório")))
SEAT_CHOICES = [(str(n), str(n + 1)) for n in range(4)]

_NAME_ERRORS = {
    "required": _("Escolha um nome para aparecer na mesa."),
    "max_length": _("O nome pode ter até %(limit_value)d letras (tem %(show_value)d)."),
}


def _controls_out(text: str) -> str:
    """The text without control characters (a line break, a tab, a NUL): a name is one line people read."""
    return "".join(ch for ch in text if ch.isprintable() or ch == " ")


class DisplayNameField(NameFormField):
    """A display name: one line, 1 to 30 letters, nothing but what people read."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("label", _("Seu nome na mesa"))
        kwargs.setdefault("max_length", NAME_MAX)
        kwargs.setdefault("error_messages", _NAME_ERRORS)
        super().__init__(**kwargs)
        self.widget.attrs.update({"autocomplete": "nickname", "maxlength": str(NAME_MAX), "spellcheck": "false"})

    def to_python(self, value: Any) -> Any:
        value = super().to_python(value)
        return " ".join(_controls_out(value).split()) if isinstance(value, str) else value


class AvatarChoiceField(forms.ChoiceField):
    widget = forms.RadioSelect

    def __init__(self, *, avatars: tuple[str, ...], **kwargs: Any) -> None:
        kwargs.setdefault("label", _("Avatar"))
        kwargs.setdefault(
            "error_messages",
            {"required": _("Escolha um avatar."), "invalid_choice": _("Escolha um dos avatares da lista.")},
        )
        super().__init__(choices=[(a, a) for a in avatars], **kwargs)


class ProfileForm(forms.Form):
    """A guest's (or an account's) name and avatar at the tables."""

    nome = DisplayNameField()
    avatar = AvatarChoiceField(avatars=())

    def __init__(self, *args: Any, avatars: tuple[str, ...], name_required: bool = True, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        avatar = self.fields["avatar"]
        assert isinstance(avatar, forms.ChoiceField)
        avatar.choices = [(a, a) for a in avatars]
        if not name_required:  # an account's name is its own: only the avatar changes
            del self.fields["nome"]


class QuickPlayForm(forms.Form):
    """ "Jogar agora": a guest gives a name (an account needs none)."""

    nome = DisplayNameField(required=False)

    def __init__(self, *args: Any, name_required: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["nome"].required = name_required


class TableCreateForm(forms.Form):
    """A new table: how it looks, its cards, an optional password. It stays hidden until its host confirms it."""

    nome = DisplayNameField(required=False)
    aparencia = forms.ChoiceField(
        label=_("Mesa"),
        choices=APPEARANCES,
        initial="verde",
        widget=forms.RadioSelect,
        error_messages={"required": _("Escolha a cor da mesa."), "invalid_choice": _("Escolha uma das mesas.")},
    )
    cartas = forms.ChoiceField(
        label=_("Frente das cartas"),
        choices=FACES,
        initial="classico",
        widget=forms.RadioSelect,
        error_messages={
            "required": _("Escolha a frente das cartas."),
            "invalid_choice": _("Escolha uma das frentes de carta."),
        },
    )
    verso = forms.ChoiceField(
        label=_("Verso das cartas"),
        choices=BACKS,
        initial="azul",
        widget=forms.RadioSelect,
        error_messages={"required": _("Escolha o verso das cartas."), "invalid_choice": _("Escolha um dos versos.")},
    )
    senha = forms.CharField(
        label=_("Senha (opcional)"),
        required=False,
        max_length=PASSWORD_MAX,
        strip=False,
        help_text=_("Com senha, só senta quem a souber. Sem senha, qualquer um senta."),
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        error_messages={"max_length": _("A senha pode ter até %(limit_value)d caracteres.")},
    )

    def __init__(self, *args: Any, name_required: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if name_required:
            self.fields["nome"].required = True
        else:
            del self.fields["nome"]


class SeatField(forms.TypedChoiceField):
    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault(
            "error_messages",
            {"required": _("Diga qual assento."), "invalid_choice": _("Os assentos são 1, 2, 3 e 4.")},
        )
        super().__init__(choices=SEAT_CHOICES, coerce=int, **kwargs)


class SitForm(forms.Form):
    """Take a seat (a given one, or the first free), with the table's password when it has one."""

    assento = SeatField(label=_("Assento"), required=False, empty_value=None)
    senha = forms.CharField(
        label=_("Senha da mesa"),
        required=False,
        max_length=PASSWORD_MAX,
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "off"}),
        error_messages={"max_length": _("Senha errada.")},
    )


class MoveForm(forms.Form):
    """The host moves a player to another seat (or swaps two)."""

    de = SeatField(label=_("De"))
    para = SeatField(label=_("Para"))

    def clean(self) -> dict[str, Any] | None:
        data = super().clean() or {}
        if data.get("de") is not None and data.get("de") == data.get("para"):
            raise forms.ValidationError(_("Escolha dois assentos diferentes."))
        return data


class SeatOnlyForm(forms.Form):
    """The host removes whoever sits in a seat."""

    assento = SeatField(label=_("Assento"))


class RobotsForm(forms.Form):
    """The host fills the empty seats with robots."""

    nivel = forms.ChoiceField(
        label=_("Nível dos robôs"),
        choices=ROBOT_LEVELS,
        initial="basico",
        required=False,
        error_messages={"invalid_choice": _("Os robôs são básicos ou aleatórios.")},
    )


class ChatForm(forms.Form):
    """A message in a sala's chat (the table's goes by the live connection)."""

    texto = forms.CharField(
        label=_("Mensagem"),
        max_length=CHAT_MAX,
        error_messages={
            "required": _("Escreva a mensagem."),
            "max_length": _("A mensagem pode ter até %(limit_value)d caracteres (tem %(show_value)d)."),
        },
        widget=forms.TextInput(attrs={"autocomplete": "off", "maxlength": str(CHAT_MAX)}),
    )
