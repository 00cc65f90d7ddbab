curl -H "Authorization: Token $KEY" -H "Accept-Language: en" http://127.0.0.1:8000/api/tournaments/?page_size=10
