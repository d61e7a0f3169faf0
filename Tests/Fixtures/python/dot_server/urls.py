from django.contrib.auth import views as auth
from django.urls import include, path, re_path

from dot_server import views

urlpatterns = [
    # A person signs in here on the way to DOT's authorization and device pages (LOGIN_URL).
    path("accounts/login/", auth.LoginView.as_view(template_name="login.html"), name="login"),
    # Before DOT's own, which they replace under the same paths (and names, for reverse()).
    path("o/token/", views.TokenView.as_view()),
    path("o/device-authorization/", views.DeviceAuthorizationView.as_view()),
    re_path(r"^o/\.well-known/openid-configuration/?$", views.ConnectDiscoveryInfoView.as_view()),
    path("o/.well-known/oauth-authorization-server", views.OAuthServerMetadataView.as_view()),
    path("o/", include("oauth2_provider.urls", namespace="oauth2_provider")),
    re_path(r"^test/tokens/?$", views.Tokens.as_view(), name="test_tokens"),
]
