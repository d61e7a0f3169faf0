from django.contrib.auth.models import User
from django.db.models import Q
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from knox.models import AuthToken
from knox.views import LoginView as KnoxLoginView
from rest_framework import generics, serializers
from rest_framework.authentication import BasicAuthentication
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from knox_server.models import Item


class UserSerializer(serializers.ModelSerializer):
    class Meta:
        model = User
        fields = ["id", "username", "email", "first_name", "last_name"]


class ItemSerializer(serializers.ModelSerializer):
    class Meta:
        model = Item
        fields = ["id"]


class CountSerializer(serializers.Serializer):
    count = serializers.IntegerField()


class LoginSerializer(serializers.Serializer):
    """The new token, and when it expires."""

    expiry = serializers.DateTimeField()
    token = serializers.CharField()


class LoginView(KnoxLoginView):
    """A new token for the user the Basic credentials name."""

    authentication_classes = [BasicAuthentication]

    # An APIView without a serializer, which drf-spectacular would describe as answering no body at all.
    @extend_schema(request=None, responses=LoginSerializer)
    def post(self, request, format=None):
        return super().post(request, format=format)


class Me(generics.RetrieveAPIView):
    """The user the token belongs to."""

    serializer_class = UserSerializer

    def get_object(self):
        return self.request.user


class ItemList(generics.ListAPIView):
    """The 25 items, ten a page (REST_FRAMEWORK's PageNumberPagination and PAGE_SIZE)."""

    queryset = Item.objects.all()
    serializer_class = ItemSerializer


class Tokens(APIView):
    """For the tests only: how many knox tokens the server holds that have not expired (a logout deletes the one
    it was sent, a logout of all sessions every one of the user's)."""

    authentication_classes = []
    permission_classes = [AllowAny]

    @extend_schema(responses=CountSerializer)
    def get(self, request):
        live = AuthToken.objects.filter(Q(expiry__gt=timezone.now()) | Q(expiry__isnull=True))
        return Response({"count": live.count()})
