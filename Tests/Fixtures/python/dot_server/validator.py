from oauth2_provider.oauth2_validators import OAuth2Validator


class Validator(OAuth2Validator):
    """Userinfo with the user's e-mail and name, whatever the scopes."""

    oidc_claim_scope = None

    def get_additional_claims(self, request):
        user = request.user
        return {"email": user.email, "name": f"{user.first_name} {user.last_name}"}
