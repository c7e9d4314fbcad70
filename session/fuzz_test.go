package session

import ()
