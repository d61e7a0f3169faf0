"""What the fixture adds to DOT's views: the device authorization answer's URLs and lifetime, the device
authorization endpoint in both discovery documents, and a count of what the server has issued."""

import json
import threading
import time

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.urls import reverse
from django.utils import timezone
from django.views import View
from oauth2_provider import views as dot
from oauth2_provider.models import (
    get_access_token_model,
    get_device_grant_model,
    get_grant_model,
    get_refresh_token_model,
)
from oauth2_provider.settings import oauth2_settings
from oauthlib.oauth2 import DeviceApplicationServer
from oauthlib.oauth2.rfc8628.errors import SlowDownError


class DeviceServer(DeviceApplicationServer):
    """oauthlib's device authorization endpoint, with the codes' life from DEVICE_EXPIRES: its
    DeviceApplicationServer drops the expires_in that DeviceAuthorizationEndpoint takes (1800 s otherwise)."""

    def __init__(self, request_validator, **kwargs):
        super().__init__(request_validator, **kwargs)
        self._expires_in = settings.DEVICE_EXPIRES


class DeviceAuthorizationView(dot.DeviceAuthorizationView):
    """DOT's RFC 8628 §3.1 endpoint, whose verification_uri is DOT's device page on this server: DOT takes it
    from a setting (OAUTH_DEVICE_VERIFICATION_URI, null if unset), and the fixture's port is only known once it
    listens. verification_uri_complete adds the user code, which DOT's page fills in.

    Without the scope that oauthlib 4 adds to the answer: DOT 3.4.1 makes a DeviceCodeResponse of the answer,
    which takes no scope (a TypeError, HTTP 500). RFC 8628 §3.2 defines no scope there; DOT keeps the requested
    scope (or the client's default ones) with the device grant all the same."""

    server_class = DeviceServer

    def create_device_authorization_response(self, request):
        headers, response, status = super().create_device_authorization_response(request)
        if status == 200:
            response.pop("scope", None)
            uri = request.build_absolute_uri(reverse("oauth2_provider:device"))
            response["verification_uri"] = uri
            if settings.DEVICE_URI_COMPLETE:
                response["verification_uri_complete"] = f"{uri}?user_code={response['user_code']}"
        return headers, response, status


class TokenView(dot.TokenView):
    """DOT's token endpoint, which answers a device code's polls from its status alone: the status becomes
    expired only when something calls is_expired(), which only DOT's user code page does, so a device code
    that nobody approves stays authorization_pending forever. Here a poll past expires_in is expired_token.

    With DEVICE_SLOW_DOWN=1, a poll sooner than the interval after the previous one for that device code is
    slow_down (RFC 8628 §3.5, which DOT never answers), and the interval that the next poll must keep grows
    by 5 s, as the client's must."""

    polls = {}  # device code → (the previous poll's time, the interval the next one must keep)
    lock = threading.Lock()

    def device_flow_token_response(self, request, device_code, *args, **kwargs):
        device = get_device_grant_model().objects.filter(device_code=device_code).first()
        if device is not None and not device.is_expired() and device.status == device.AUTHORIZATION_PENDING:
            if settings.DEVICE_SLOW_DOWN and self.too_soon(device_code):
                error = SlowDownError()
                return HttpResponse(error.json, status=error.status_code, content_type="application/json")
        return super().device_flow_token_response(request, device_code, *args, **kwargs)

    @classmethod
    def too_soon(cls, device_code):
        now = time.monotonic()
        with cls.lock:
            previous, interval = cls.polls.get(device_code, (None, oauth2_settings.DEVICE_FLOW_INTERVAL))
            # A quarter of a second's slack: the client measures from its side of the network.
            soon = previous is not None and now - previous < interval - 0.25
            cls.polls[device_code] = (now, interval + 5 if soon else interval)
        return soon


def _with_device_endpoint(view_class):
    """DOT's discovery view, adding RFC 8628 §4's device_authorization_endpoint, which DOT leaves out, and
    without the password grant when NO_PASSWORD_GRANT=1."""

    class WithDeviceEndpoint(view_class):
        def get(self, request, *args, **kwargs):
            response = super().get(request, *args, **kwargs)
            if response.status_code != 200:
                return response
            data = json.loads(response.content)
            data["device_authorization_endpoint"] = request.build_absolute_uri(
                reverse("oauth2_provider:device-authorization"))
            # As a provider that offers public clients no password grant (Keycloak's default for them) says it.
            if settings.NO_PASSWORD_GRANT and "grant_types_supported" in data:
                data["grant_types_supported"] = [g for g in data["grant_types_supported"] if g != "password"]
            answer = JsonResponse(data)
            answer["Access-Control-Allow-Origin"] = "*"
            return answer

    WithDeviceEndpoint.__name__ = view_class.__name__
    return WithDeviceEndpoint


ConnectDiscoveryInfoView = _with_device_endpoint(dot.ConnectDiscoveryInfoView)
OAuthServerMetadataView = _with_device_endpoint(dot.OAuthServerMetadataView)


class Tokens(View):
    """For the tests, without authentication: how many live access tokens (not expired), refresh tokens (not
    revoked) and authorization codes (issued, neither exchanged nor expired) the server holds."""

    def get(self, request):
        now = timezone.now()
        return JsonResponse({
            "access": get_access_token_model().objects.filter(expires__gt=now).count(),
            "refresh": get_refresh_token_model().objects.filter(revoked__isnull=True).count(),
            "grants": get_grant_model().objects.filter(expires__gt=now).count(),
        })
