SELECT mark FROM push_streams WHERE machine = ?1 AND stream = ?2;
