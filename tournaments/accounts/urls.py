"""/entrar/, /sair/ and the password pages: Django's auth views with Zap's templates."""

from django.contrib.auth import views as auth_views
from django.urls import path, re_path, reverse_lazy

from .views import LoginView, ThrottledPasswordResetView, account, invitation, organizer_signup

app_name = "accounts"

urlpatterns = [
    re_path(r"^convites/(?P<token>[A-Za-z0-9_-]{16,100})/$", invitation, name="invitation"),
    path("entrar/", LoginView.as_view(), name="login"),
    path("conta/", account, name="account"),
    path("conta/nova/", organizer_signup, name="signup"),
    path("sair/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "conta/senha/",
        auth_views.PasswordChangeView.as_view(
            template_name="accounts/form.html",
            success_url=reverse_lazy("accounts:password_change_done"),
            extra_context={"title": "Trocar a senha"},
        ),
        name="password_change",
    ),
    path(
        "conta/senha/pronto/",
        auth_views.PasswordChangeDoneView.as_view(
            template_name="accounts/message.html",
            extra_context={"title": "Senha trocada", "message": "Sua senha foi trocada."},
        ),
        name="password_change_done",
    ),
    path(
        "conta/senha/esqueci/",
        ThrottledPasswordResetView.as_view(
            template_name="accounts/form.html",
            email_template_name="accounts/reset_email.txt",
            subject_template_name="accounts/reset_subject.txt",
            success_url=reverse_lazy("accounts:password_reset_done"),
            extra_context={"title": "Esqueci a senha"},
        ),
        name="password_reset",
    ),
    path(
        "conta/senha/esqueci/enviado/",
        auth_views.PasswordResetDoneView.as_view(
            template_name="accounts/message.html",
            extra_context={
                "title": "Verifique seu e-mail",
                "message": "Se houver uma conta com esse e-mail, enviamos um link para criar uma nova senha.",
            },
        ),
        name="password_reset_done",
    ),
    path(
        "conta/senha/nova/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(
            template_name="accounts/form.html",
            success_url=reverse_lazy("accounts:password_reset_complete"),
            extra_context={"title": "Nova senha"},
        ),
        name="password_reset_confirm",
    ),
    path(
        "conta/senha/nova/pronto/",
        auth_views.PasswordResetCompleteView.as_view(
            template_name="accounts/message.html",
            extra_context={"title": "Senha criada", "message": "Sua nova senha está valendo. Entre com ela."},
        ),
        name="password_reset_complete",
    ),
]
