from ninja import Schema
from ninja.pagination import PageNumberPagination, paginate
from ninja_extra import NinjaExtraAPI, api_controller
from ninja_extra.permissions import AllowAny
from ninja_jwt.authentication import JWTAuth
from ninja_jwt.controller import NinjaJWTDefaultController, TokenBlackListController
from ninja_jwt.token_blacklist.models import BlacklistedToken

from ninja_server.models import Item

api = NinjaExtraAPI(title="swaggerctl Django Ninja fixture", version="1.0.0")
api.register_controllers(
    NinjaJWTDefaultController,
    # POST token/blacklist, beside the default controller's routes (it has none for the blacklist).
    api_controller("/token", permissions=[AllowAny], tags=["token"], auth=None)(TokenBlackListController),
)


class UserOut(Schema):
    id: int
    username: str
    email: str
    first_name: str
    last_name: str


class ItemOut(Schema):
    id: int


class Count(Schema):
    count: int


@api.get("/me", auth=JWTAuth(), response=UserOut)
def me(request):
    """The user the bearer token belongs to."""
    return request.user


@api.get("/items", auth=JWTAuth(), response=list[ItemOut])
@paginate(PageNumberPagination, page_size=10)
def items(request):
    """The 25 items, ten a page (?page=N)."""
    return Item.objects.all()


@api.get("/items/limit-offset", auth=JWTAuth(), response=list[ItemOut])
@paginate
def items_limit_offset(request):
    """The same 25 items, by ?offset=N&limit=M: Ninja's default pagination, LimitOffsetPagination, whose limit is
    100 unless a request says otherwise."""
    return Item.objects.all()


@api.get("/test/blacklisted", response=Count)
def blacklisted(request):
    """For the tests only: how many refresh tokens the server has blacklisted."""
    return {"count": BlacklistedToken.objects.count()}
