"""Create, edit, duplicate a tournament; its format; the tournament file (download, create from upload)."""

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse

from .placeholder import soon

tournament_edit = format_edit = tournament_duplicate = tournament_file = soon


@login_required
def tournament_new(request):
    return HttpResponse("em construção")


tournament_upload = tournament_new
