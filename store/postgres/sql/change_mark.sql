SELECT mark FROM change_marks;
