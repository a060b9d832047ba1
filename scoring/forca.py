"""The força of an atleta within a circuit (DOMAIN §7.3), for seeding only: an OpenSkill rating (the
Plackett-Luce model with its default parameters) over the counted jogos of the circuit's etapas in order, each
dupla a team of its two atletas, shown as mu − 3 sigma (the "ordinal").

Pure Python over plain inputs: a jogo is its two duplas (each a pair of atleta keys) and which side won. Which
jogos count and in what order is the site's business; the rating is only here. It is never a published placing:
the draw uses it to choose its cabeças de chave and says so, nothing more.

Choices where DOMAIN is silent, kept here:
- a jogo without a winner (both duplas absent) is left out: OpenSkill rates an order, and there is none;
- an atleta with no jogo has the model's prior (mu = 25, sigma = 25/3), so mu − 3 sigma = 0;
- a dupla's força is the **sum** of its two atletas' mu − 3 sigma (the same order as their mean, kept in the rating's
  own unit per atleta); a dupla with one newcomer is as strong as its known atleta plus 0.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from openskill.models import PlackettLuce, PlackettLuceRating

__all__ = ["Forca", "ForcaJogo", "dupla_forca", "forca_prior", "forca_ratings"]


@dataclass(frozen=True, slots=True)
class ForcaJogo:
    """One counted jogo: ``duplas[0]`` and ``duplas[1]``, each two atleta keys; ``winner`` is 0 or 1."""

    duplas: tuple[tuple[str, str], tuple[str, str]]
    winner: int | None


@dataclass(frozen=True, slots=True)
class Forca:
    mu: float
    sigma: float
    jogos: int  # rated jogos played

    @property
    def ordinal(self) -> float:
        """mu − 3 sigma: the skill the atleta is 99.7% likely to be above."""
        return self.mu - 3 * self.sigma


def _model() -> PlackettLuce:
    return PlackettLuce()  # DOMAIN §7.3: default parameters


def forca_prior() -> Forca:
    rating = _model().rating()
    return Forca(mu=rating.mu, sigma=rating.sigma, jogos=0)


def forca_ratings(*, jogos: Iterable[ForcaJogo]) -> dict[str, Forca]:
    """Each atleta's força after ``jogos`` (in the order given); only atletas who played a rated jogo.

    Raises ``ValueError`` for a jogo whose four places do not hold four different atletas, or whose winner is
    not 0, 1 or None."""
    model = _model()
    ratings: dict[str, PlackettLuceRating] = {}
    played: dict[str, int] = {}
    for number, jogo in enumerate(jogos, start=1):
        a, b = jogo.duplas
        keys = [*a, *b]
        if len(a) != 2 or len(b) != 2 or len(set(keys)) != 4:
            raise ValueError(f"jogo {number}: each dupla must be two atletas, four different in all: {keys}")
        if jogo.winner is None:
            continue
        if jogo.winner not in (0, 1):
            raise ValueError(f"jogo {number}: the winner must be 0 or 1, not {jogo.winner!r}")
        winners, losers = (a, b) if jogo.winner == 0 else (b, a)
        teams = [
            [ratings.get(k) or model.rating(name=k) for k in winners],
            [ratings.get(k) or model.rating(name=k) for k in losers],
        ]
        rated = model.rate(teams)  # the first team ranked first: the winner
        for key, rating in zip([*winners, *losers], [*rated[0], *rated[1]], strict=True):
            ratings[key] = rating
            played[key] = played.get(key, 0) + 1
    return {k: Forca(mu=r.mu, sigma=r.sigma, jogos=played[k]) for k, r in ratings.items()}


def dupla_forca(*, ratings: Mapping[str, Forca], atletas: Iterable[str]) -> float:
    """A dupla's seeding strength: the sum of its atletas' mu − 3 sigma (an atleta without a rated jogo: the prior)."""
    prior = forca_prior()
    return sum((ratings.get(k) or prior).ordinal for k in atletas)
