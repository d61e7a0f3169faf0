from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.http import JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET


@csrf_exempt
@require_GET
def state(request):
    """For the tests only: how many users and how many sessions the server holds. A login adds a session (with
    either strategy: a JWT's `sid` names one) and no user; a logout deletes the session."""
    return JsonResponse({"users": get_user_model().objects.count(), "sessions": Session.objects.count()})
