from oauth2_provider.models import get_device_grant_model
from oauth2_provider.oauth2_validators import OAuth2Validator


class Validator(OAuth2Validator):
    """Userinfo with the user's e-mail and name, whatever the scopes; and the device code's status."""

    oidc_claim_scope = None

    def get_additional_claims(self, request):
        user = request.user
        return {"email": user.email, "name": f"{user.first_name} {user.last_name}"}

    def validate_device_code(self, client_id, code, request, *args, **kwargs):
        """What oauthlib 4's device code grant asks before it issues a token, and DOT 3.4.1 does not answer (an
        AttributeError, HTTP 500). DOT's token view has answered a pending, denied or expired device code itself
        by then, from its status alone; a code approved after its expires_in is expired here."""
        model = get_device_grant_model()
        try:
            device = model.objects.get(device_code=code, client_id=client_id)
        except model.DoesNotExist:
            return None  # invalid_grant
        if device.is_expired():
            return "expired_token"
        if device.status == device.AUTHORIZED:
            request.user = device.user
            request.scopes = device.scope.split()
            return "authorized"
        return {device.DENIED: "access_denied"}.get(device.status, "authorization_pending")
