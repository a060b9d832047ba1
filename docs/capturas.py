#!/usr/bin/env python
"""As capturas de tela da ajuda (docs/img/*.png), tiradas do site de verdade.

    .venv/bin/python docs/capturas.py            # todas
    .venv/bin/python docs/capturas.py --manter   # deixa o servidor no ar no fim (para olhar à mão)

Monta um banco SQLite descartável em /tmp/zap-docs.sqlite3 (apagado a cada
execução), roda ``migrate`` e ``load_demo --accounts`` (contas ``comissao`` e
``arbitro``, senha ``truco-demo``), sobe ``manage.py runserver`` numa porta
livre e percorre o site no Chromium do Debian (Playwright, API síncrona), como
uma comissão faria: cria um torneio, recebe inscrições (formulário público,
balcão e planilha CSV), sorteia duplas e chave, distribui mesas e árbitros,
faz os PINs, anota uma súmula no celular do árbitro, as duplas confirmam e o
árbitro assina. Os torneios de demonstração (já encerrados) dão a chave, a
classificação, as medalhas e os certificados.

Precisa do Chromium do Debian (``apt-get install chromium``) e, para as
medalhas (🥇) aparecerem nas telas, de uma fonte de emoji
(``apt-get install fonts-noto-color-emoji``).

Cada imagem tem um nome fixo, citado pelos .md: rodar de novo substitui as
imagens sem mexer no texto. Telas de celular têm 390 px de largura (CSS);
telas largas, 1366 px. Cada PNG fica com menos de ~250 KB (capturas da altura
da tela ou recortadas; acima disso a imagem é reduzida a 256 cores).
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import datetime as dt
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
IMG = ROOT / "docs" / "img"
DB = Path("/tmp/zap-docs.sqlite3")
PYTHON = ROOT / ".venv" / "bin" / "python"
CHROMIUM = "/usr/bin/chromium"
PASSWORD = "truco-demo"  # the demo accounts' (load_demo --accounts), development only
REFEREE_NAME = "Rogério Lima"  # the demo referee's name (load_demo.DEMO_NAMES): how the desk lists him
MAX_BYTES = 250_000
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 768}
ALL_WIDE = False  # --largura 1366: every screen at 1,366 px (a look at the whole walk on a computer)

DEMO_KNOCKOUT, DEMO_GROUPS = "aabb-2024", "fenacef-2023"
EVENT_DAY = dt.date.today() + dt.timedelta(days=21)
EVENT_NAME = f"Copa do Clube {EVENT_DAY.year} - Truco"

# the registration CSVs of the walk: one with problems (shown, nothing written), one good
CSV_HEADER = ["nome", "nascimento", "telefone", "email", "parceiro", "parceiro_nascimento"]
CSV_GOOD = [
    ["Ana Souza", "01/05/1990", "(11) 98888-7777", "ana@example.com", "", ""],
    ["Bruno Lima", "23/11/1985", "(11) 97777-6666", "", "", ""],
    ["Carla Dias", "14/02/1979", "", "carla@example.com", "Davi Rocha", "30/07/1992"],
    ["Elisa Prado", "09/01/1988", "(19) 99999-1111", "", "", ""],
    ["Fábio Nunes", "18/03/1975", "", "fabio@example.com", "", ""],
    ["Gabi Torres", "02/12/1999", "(11) 95555-4444", "", "Hugo Melo", "25/06/1983"],
    ["Iris Campos", "31/01/1990", "(11) 94444-3333", "", "", ""],
    ["João Pedro Alves", "05/05/1980", "", "joao@example.com", "", ""],
    ["Karina Sá", "10/10/1994", "(21) 98765-4321", "", "Luiz Reis", "03/03/1970"],
    ["Marta Luz", "07/07/1987", "(11) 93333-2222", "", "", ""],
    ["Nelson Paz", "08/08/1968", "", "nelson@example.com", "", ""],
]
CSV_BAD = [
    ["Otávio Neves", "31/02/1990", "", "", "", ""],
    ["Paula Rios", "", "(11) 92222-1111", "", "", ""],
    ["Rafael Gomes", "10/10/2012", "", "", "", ""],
    ["Sara Lins", "12/12/1992", "1234", "", "", ""],
    ["ana souza", "01/05/1990", "", "", "", ""],
]


def log(message: str) -> None:
    print(message, flush=True)


# --- the throwaway site ------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def environment(base: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DATABASE_URL=f"sqlite:///{DB}",
        ZAP_DEV="1",
        DEBUG="1",
        REDIS_URL="",
        SITE_URL=base,
        REQUEST_LOG_LEVEL="WARNING",
        PYTHONUNBUFFERED="1",
    )
    return env


def manage(env: dict[str, str], *args: str) -> str:
    python = str(PYTHON if PYTHON.exists() else sys.executable)
    done = subprocess.run([python, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"manage.py {' '.join(args)} falhou:\n{done.stdout}\n{done.stderr}")
    return done.stdout


@contextlib.contextmanager
def site():
    """migrate + load_demo --accounts on a fresh SQLite file, then runserver on a free port; yields the base URL."""
    for suffix in ("", "-journal", "-wal", "-shm"):
        Path(f"{DB}{suffix}").unlink(missing_ok=True)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = environment(base)
    log(f"banco {DB}: migrate, load_demo --accounts")
    manage(env, "migrate", "--noinput", "-v", "0")
    manage(env, "load_demo", "--accounts")
    python = str(PYTHON if PYTHON.exists() else sys.executable)
    log_path = Path(tempfile.gettempdir()) / "zap-docs-runserver.log"
    with log_path.open("w") as server_log:
        server = subprocess.Popen(
            [python, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
            cwd=ROOT,
            env=env,
            stdout=server_log,
            stderr=subprocess.STDOUT,
        )
        yield from _serving(server, base, log_path)


def _serving(server: subprocess.Popen, base: str, log_path: Path):
    try:
        for _ in range(200):
            try:
                urllib.request.urlopen(f"{base}/torneios/", timeout=2)
                break
            except OSError:
                if server.poll() is not None:
                    raise SystemExit(f"o runserver parou; veja {log_path}")
                time.sleep(0.1)
        else:
            raise SystemExit(f"o runserver não respondeu em {base}")
        log(f"servidor em {base}")
        yield base
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()


# --- images ------------------------------------------------------------------------------------------------


def _fit(path: Path) -> None:
    """Keep a PNG under MAX_BYTES: 256 colours first, then smaller."""
    if path.stat().st_size <= MAX_BYTES:
        return
    from PIL import Image

    image = Image.open(path).convert("RGB")
    while True:
        small = image.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
        small.save(path, optimize=True)
        if path.stat().st_size <= MAX_BYTES:
            return
        image = image.resize((int(image.width * 0.85), int(image.height * 0.85)), Image.Resampling.LANCZOS)


WRITTEN: set[str] = set()  # the images this run wrote


def _saved(path: Path) -> None:
    _fit(path)
    WRITTEN.add(path.name)
    log(f"  {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path} ({path.stat().st_size // 1000} KB)")


def shot(page, name: str, *, element=None, max_height: int = 1400, pad: int = 8) -> None:
    """A PNG of what the viewport shows, or of one element (clipped to ``max_height`` CSS pixels)."""
    path = IMG / f"{name}.png"
    page.wait_for_load_state("networkidle")
    if element is None:
        page.screenshot(path=path, scale="css", animations="disabled", caret="hide")
    else:
        target = page.locator(element).first if isinstance(element, str) else element
        target.scroll_into_view_if_needed()
        box = target.bounding_box()
        scroll = page.evaluate("[window.scrollX, window.scrollY]")
        width = page.viewport_size["width"]
        clip = {
            "x": 0,
            "y": max(0, box["y"] + scroll[1] - pad),
            "width": width,
            "height": min(box["height"] + 2 * pad, max_height),
        }
        page.screenshot(path=path, scale="css", animations="disabled", caret="hide", clip=clip, full_page=True)
    _saved(path)


def pdf_shot(content: bytes, name: str, *, page_number: int = 0, width: int = 900, crop: float = 1.0) -> None:
    """Page ``page_number`` of a PDF as a PNG ``width`` pixels wide (top ``crop`` of it)."""
    import pypdfium2

    pdf = pypdfium2.PdfDocument(content)
    try:
        page = pdf[page_number]
        scale = width / page.get_width()
        image = page.render(scale=scale).to_pil().convert("RGB")
    finally:
        pdf.close()
    if crop < 1.0:
        image = image.crop((0, 0, image.width, int(image.height * crop)))
    path = IMG / f"{name}.png"
    image.save(path, optimize=True)
    _saved(path)


def submit(page, button) -> None:
    """Click a button that sends a form, and wait for the page that answers it."""
    with page.expect_navigation():
        button.click()


def csv_file(rows: list[list[str]], folder: Path, name: str) -> Path:
    path = folder / name
    with path.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.writer(fh, delimiter=";")
        writer.writerow(CSV_HEADER)
        writer.writerows(rows)
    return path


# --- the walk ----------------------------------------------------------------------------------------------


class Walk:
    def __init__(self, browser, base: str, folder: Path):
        self.browser, self.base, self.folder = browser, base, folder
        self.slug = ""
        self.cards: list[dict] = []

    def context(self, *, wide: bool = False):
        wide = wide or ALL_WIDE
        return self.browser.new_context(
            viewport=DESKTOP if wide else PHONE,
            device_scale_factor=2,
            locale="pt-BR",
            timezone_id="America/Sao_Paulo",
            is_mobile=not wide,
            has_touch=not wide,
        )

    def login(self, context, username: str):
        page = context.new_page()
        page.goto(f"{self.base}/entrar/")
        page.fill("#id_username", username)
        page.fill("#id_password", PASSWORD)
        page.get_by_role("button", name="Entrar").click()
        page.wait_for_url("**/organizar/**")
        return page

    def url(self, path: str) -> str:
        return f"{self.base}/organizar/{self.slug}/{path}"

    # 1. setup
    def setup(self, page) -> None:
        log("criar o torneio")
        page.goto(f"{self.base}/organizar/")
        shot(page, "meus-torneios")
        page.goto(f"{self.base}/organizar/novo/")
        page.fill("#id_name", EVENT_NAME)
        page.fill("#id_date", EVENT_DAY.isoformat())
        page.fill("#id_venue", "Salão do Clube")
        shot(page, "criar-torneio", element="form.card", max_height=1500)
        page.get_by_role("button", name="Criar torneio").click()
        page.wait_for_url(re.compile(r".*/organizar/[\w-]+/$"))
        self.slug = page.url.rstrip("/").rsplit("/", 1)[1]
        shot(page, "resumo-novo")
        page.goto(self.url("editar/"))
        page.fill("#id_start_time", "14:00")
        submit(page, page.get_by_role("button", name="Salvar"))
        shot(page, "dados-do-torneio")
        page.goto(self.url("formato/"))
        shot(page, "formato")
        page.goto(self.url("publicar/"))
        shot(page, "publicar")
        submit(page, page.get_by_role("button", name="Publicar o evento"))

    # 2. registrations
    def signup(self) -> None:
        log("inscrição pelo formulário público")
        context = self.context()
        page = context.new_page()
        page.goto(f"{self.base}/torneios/{self.slug}/")
        shot(page, "pagina-do-torneio")
        page.goto(f"{self.base}/torneios/{self.slug}/inscricao/")
        page.fill("#id_name", "Marina Costa")
        page.fill("#id_birth_date", "1991-04-12")
        page.fill("#id_phone", "(11) 97777-1234")
        shot(page, "inscricao-publica")
        submit(page, page.get_by_role("button", name="Enviar inscrição"))
        shot(page, "inscricao-recebida")
        context.close()

    def registrations(self, page, wide_page) -> None:
        log("inscrições no balcão e por planilha")
        page.goto(self.url("inscricoes/nova/"))
        page.fill("#id_name", "Paulo Mendes")
        page.fill("#id_birth_date", "1980-09-09")
        page.fill("#id_phone", "(11) 96666-5555")
        shot(page, "nova-inscricao")
        submit(page, page.get_by_role("button", name="Adicionar", exact=True))
        bad = csv_file(CSV_GOOD[:2] + CSV_BAD, self.folder, "inscricoes-com-erros.csv")
        good = csv_file(CSV_GOOD, self.folder, "inscricoes.csv")
        wide_page.goto(self.url("inscricoes/planilha/"))
        wide_page.set_input_files("#id_file", str(bad))
        submit(wide_page, wide_page.get_by_role("button", name="Ver a pré-visualização"))
        shot(wide_page, "planilha-erros")
        wide_page.set_input_files("#id_file", str(good))
        submit(wide_page, wide_page.get_by_role("button", name="Ver a pré-visualização"))
        shot(wide_page, "planilha-previa")
        submit(wide_page, wide_page.get_by_role("button", name="Confirmar inscrições"))
        page.goto(self.url("inscricoes/"))
        page.locator(".reg-card").first.get_by_role("button", name="Presente").click()
        page.wait_for_load_state("networkidle")
        page.goto(self.url("inscricoes/"))
        shot(page, "inscricoes")
        submit(page, page.get_by_role("button", name="Encerrar inscrições"))

    # 3 and 4. draws
    def draws(self, page, wide_page) -> None:
        log("sorteio das duplas e da chave")
        page.goto(self.url("sorteios/duplas/"))
        submit(page, page.get_by_role("button", name="Sortear as duplas"))
        shot(page, "sorteio-duplas-previa", element="main", max_height=1300)
        submit(page, page.get_by_role("button", name="Confirmar estas duplas"))
        shot(page, "sorteio-duplas", element="section.card >> nth=1", max_height=900)
        page.goto(self.url("duplas/"))
        shot(page, "duplas")
        wide_page.goto(self.url("sorteios/competicao/"))
        shot(wide_page, "sorteio-formato")
        submit(wide_page, wide_page.get_by_role("button", name="Sortear", exact=True))
        shot(wide_page, "sorteio-previa", element="#previa", max_height=900)
        submit(wide_page, wide_page.get_by_role("button", name="Publicar"))
        page.goto(self.url(""))
        shot(page, "resumo-sorteado")

    # 5. staff, mesas, schedule
    def mesas(self, page, wide_page) -> None:
        log("equipe, mesas e programação")
        page.goto(self.url("equipe/"))
        # the referee joins by an invitation he accepts; here the operator's command stands for his acceptance
        page.fill("#id_email", "arbitro@exemplo.com")
        submit(page, page.get_by_role("button", name="Enviar convite"))
        manage(environment(self.base), "staff_add", self.slug, "arbitro", "referee")
        page.goto(self.url("equipe/"))
        shot(page, "equipe")
        page.goto(self.url("mesas/?n=4"))
        page.fill("#id_mesas", "4")
        for n in (1, 2):
            page.get_by_label(f"Árbitro da mesa {n}").select_option(label=REFEREE_NAME)
        shot(page, "mesas", element="form.card", max_height=1100)
        submit(page, page.get_by_role("button", name="Salvar mesas"))
        wide_page.goto(self.url("programacao/"))
        shot(wide_page, "programacao")

    # 6. printing, PINs
    def printing(self, page) -> None:
        log("impressão, PINs e cartões")
        page.goto(f"{self.base}/organizar/{self.slug}/imprimir/")
        shot(page, "imprimir")
        response = page.request.get(f"{self.base}/organizar/{self.slug}/imprimir/sumulas.pdf")
        assert response.ok, response.status
        pdf_shot(response.body(), "sumula-em-branco", width=820)
        page.goto(self.url("pins/"))  # the first PINs: nothing to confirm (no PIN stops working)
        shot(page, "pins", element="main", max_height=1300)
        submit(page, page.get_by_role("button", name="Fazer os PINs e ver os cartões"))
        shot(page, "cartoes")
        shot(page, "cartao", element=".pin-card", max_height=500)
        for card in page.locator(".pin-card").all():
            self.cards.append(
                {
                    "text": card.inner_text(),
                    "pin": card.locator(".pin-card-pin").inner_text().replace(" ", ""),
                    "link": card.locator(".pin-card-link a").get_attribute("href"),
                }
            )

    def card_of(self, dupla_text: str) -> dict:
        """The card of the dupla shown as ``dupla_text`` on the súmula (its name, or its two players)."""
        names = [n.strip() for n in re.split(r"[/\n]| e ", dupla_text) if n.strip()]
        for card in self.cards:
            if all(n in card["text"] for n in names):
                return card
        raise SystemExit(f"cartão da dupla {dupla_text!r} não encontrado")

    # 7. event day
    def calls(self, wide_page) -> None:
        log("chamar as duplas à mesa")
        wide_page.goto(self.url("chamadas/"))
        first = wide_page.locator(".calls-jogo").first
        dupla = first.locator(".calls-dupla > p").first.inner_text()
        submit(wide_page, first.get_by_role("button", name="Chamar"))
        shot(wide_page, "chamadas", element="main", max_height=1000)
        context = self.context()
        private = context.new_page()
        private.goto(self.card_of(dupla)["link"])
        shot(private, "sua-vez")
        context.close()

    def referee(self) -> None:
        log("dia do evento: a súmula no celular do árbitro")
        context = self.context()
        page = self.login(context, "arbitro")
        page.goto(f"{self.base}/organizar/{self.slug}/arbitragem/")
        page.locator(".referee-card").first.click()
        page.wait_for_load_state("networkidle")
        names = [n.inner_text() for n in page.locator(".score-name").all()]
        shot(page, "sumula-vazia")

        def mao(to: int, points: int, how: str = "played") -> None:
            page.locator(f'button.mao-button[data-to="{to}"][data-points="{points}"][data-how="{how}"]').click()
            page.locator('#sumula-net[data-pending="0"]').wait_for()
            page.wait_for_timeout(400)  # the screen ignores a second tap on the same button within 350 ms

        # partida 1: a truco accepted, a run from truco, a six, then the mão de onze
        for to, points, how in (
            (0, 3, "played"),
            (1, 1, "ran"),
            (0, 6, "played"),
            (1, 3, "played"),
            (0, 1, "played"),
            (0, 1, "played"),
        ):
            mao(to, points, how)
        shot(page, "sumula-mao-de-onze", element=".pad", max_height=700)
        mao(0, 3)  # the dupla on 11 played the mão de onze and won it: 14 x 4
        # partida 2
        mao(1, 3)
        mao(0, 12)
        # partida 3 begins; one entry made with the network away, sent when it comes back
        mao(1, 1)
        context.set_offline(True)
        page.locator('button.mao-button[data-to="0"][data-points="3"][data-how="played"]').click()
        page.locator('#sumula-net[data-pending="1"]').wait_for()
        shot(page, "sumula-offline")
        context.set_offline(False)
        page.locator('#sumula-net[data-pending="0"]').wait_for(timeout=30_000)
        page.goto(page.url.split("#")[0])
        shot(page, "sumula-anotar")
        page.locator(".sheet").scroll_into_view_if_needed()
        shot(page, "sumula-folha", element=".sheet", max_height=1100)
        with page.expect_navigation():
            page.locator('button.mao-button[data-to="0"][data-points="9"][data-how="played"]').click()
        page.wait_for_selector("#confirmacao")
        shot(page, "sumula-confirmar", element="#confirmacao", max_height=1300)

        # dupla A confirms with its PIN, here on the referee's phone
        card_a, card_b = self.card_of(names[0]), self.card_of(names[1])
        page.fill("#pin-0", card_a["pin"])
        submit(
            page, page.locator("#confirmacao .answer").first.get_by_role("button", name=re.compile("confirma a súmula"))
        )
        # dupla B's private link (its page, with the súmula to answer); here it confirms with its PIN too
        dupla = self.context()
        private = dupla.new_page()
        private.goto(card_b["link"])
        shot(private, "link-da-dupla")
        private.locator(".answer-item").first.scroll_into_view_if_needed()
        shot(private, "link-da-dupla-confirmar", element=".answer-item", max_height=900)
        dupla.close()
        page.fill("#pin-1", card_b["pin"])
        submit(
            page, page.locator("#confirmacao .answer").last.get_by_role("button", name=re.compile("confirma a súmula"))
        )
        page.wait_for_selector("#confirmacao")
        shot(page, "sumula-assinar", element="#confirmacao", max_height=1100)
        submit(page, page.get_by_role("button", name="Assinar a súmula (homologar)"))
        shot(page, "sumula-homologada", element=".sumula-signed", max_height=400)
        shot(page, "sumula-correcao", element="#correcao", max_height=1000)
        self.jogo_key = page.url.split("#")[0].rstrip("/").rsplit("/", 1)[1]
        # a second jogo under way, for the live public pages
        page.goto(f"{self.base}/organizar/{self.slug}/arbitragem/")
        page.locator(".referee-card", has_text="Mesa 2").first.click()
        page.wait_for_load_state("networkidle")
        for to, points in ((1, 3), (0, 1), (1, 6)):
            mao(to, points)
        page.goto(f"{self.base}/organizar/{self.slug}/arbitragem/")
        shot(page, "arbitragem-em-andamento")
        context.close()

    # 8. public pages and closing
    def public(self) -> None:
        log("páginas públicas")
        context = self.context()
        page = context.new_page()
        page.goto(f"{self.base}/torneios/{self.slug}/jogos/")
        shot(page, "jogos-ao-vivo")
        page.goto(f"{self.base}/torneios/{self.slug}/jogos/{self.jogo_key}/")
        shot(page, "sumula-publica")
        page.goto(f"{self.base}/torneios/{DEMO_GROUPS}/classificacao/")
        shot(page, "classificacao")
        page.goto(f"{self.base}/torneios/{DEMO_KNOCKOUT}/")
        shot(page, "podio")
        context.close()
        wide = self.context(wide=True)
        page = wide.new_page()
        page.goto(f"{self.base}/torneios/{DEMO_KNOCKOUT}/chave/")
        shot(page, "chave")
        wide.close()

    def closing(self, page) -> None:
        log("encerramento: medalhas, certificados, histórico")
        for sheet, name in (("medalhas.pdf", "medalhas"), ("certificados.pdf", "certificado")):
            response = page.request.get(f"{self.base}/organizar/{DEMO_KNOCKOUT}/imprimir/{sheet}")
            assert response.ok, (sheet, response.status)
            pdf_shot(response.body(), name, width=820, crop=0.62 if name == "medalhas" else 1.0)
        page.goto(f"{self.base}/organizar/{DEMO_KNOCKOUT}/")
        shot(page, "resumo-encerrado")
        page.goto(self.url("historico/"))
        shot(page, "historico")

    def run(self) -> None:
        organizer = self.context()
        page = self.login(organizer, "comissao")
        wide_context = self.context(wide=True)
        wide_page = self.login(wide_context, "comissao")
        login = self.context().new_page()
        login.goto(f"{self.base}/entrar/")
        shot(login, "entrar")
        login.context.close()
        self.setup(page)
        self.signup()
        self.registrations(page, wide_page)
        self.draws(page, wide_page)
        self.mesas(page, wide_page)
        self.printing(page)
        self.calls(wide_page)
        self.referee()
        self.public()
        self.closing(page)
        wide_context.close()
        organizer.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--manter", action="store_true", help="deixa o servidor no ar no fim, até Ctrl+C")
    parser.add_argument(
        "--largura",
        type=int,
        choices=(390, 1366),
        help="1366: todas as telas em 1.366 px (390, o padrão: as do celular no celular)",
    )
    parser.add_argument(
        "--pasta", type=Path, help="grava as imagens aqui em vez de docs/img (para olhar, sem mudar a ajuda)"
    )
    args = parser.parse_args()
    global IMG, ALL_WIDE
    ALL_WIDE = args.largura == 1366
    if args.pasta:
        IMG = args.pasta.resolve()
    from playwright.sync_api import sync_playwright

    IMG.mkdir(parents=True, exist_ok=True)
    with site() as base, tempfile.TemporaryDirectory(prefix="zap-docs-") as folder:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            try:
                Walk(browser, base, Path(folder)).run()
            finally:
                browser.close()
        log(f"pronto: {len(WRITTEN)} imagens em {IMG}/")
        others = sorted(p.name for p in IMG.glob("*.png") if p.name not in WRITTEN)
        if others:
            log(f"aviso: imagens que este script não faz mais (apague-as se nenhum .md as cita): {', '.join(others)}")
        if args.manter:
            log(f"servidor em {base} (comissao / arbitro, senha {PASSWORD}); Ctrl+C para sair")
            with contextlib.suppress(KeyboardInterrupt):
                while True:
                    time.sleep(1)


if __name__ == "__main__":
    main()
